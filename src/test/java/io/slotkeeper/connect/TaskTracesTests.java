package io.slotkeeper.connect;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A failed Debezium task's trace in one line that says the slot was lost, in the words of
 * PostgreSQL 17 and of 18.
 */
class TaskTracesTests {

	private static final String PRODUCER = "org.apache.kafka.connect.errors.ConnectException: An exception occurred in"
			+ " the change event producer. This connector will be stopped.";

	@Test
	void theLostSlotIsNamedInPostgreSql17sWords() {
		String trace = PRODUCER + "\n\tat io.debezium.pipeline.ErrorHandler.setProducerThrowable(ErrorHandler.java:67)"
				+ "\nCaused by: org.postgresql.util.PSQLException: ERROR: can no longer get changes from replication slot"
				+ " \"debezium\"\n  Detail: This slot has been invalidated because it exceeded the maximum reserved size."
				+ "\n\tat org.postgresql.core.v3.QueryExecutorImpl.receiveErrorResponse(QueryExecutorImpl.java:2733)";
		assertThat(TaskTraces.summary(trace)).isEqualTo(PRODUCER + " (caused by: org.postgresql.util.PSQLException:"
				+ " ERROR: can no longer get changes from replication slot \"debezium\")");
	}

	@Test
	void theLostSlotIsNamedInPostgreSql18sWords() {
		String trace = PRODUCER + "\n\tat io.debezium.pipeline.ErrorHandler.setProducerThrowable(ErrorHandler.java:67)"
				+ "\nCaused by: org.postgresql.util.PSQLException: ERROR: can no longer access replication slot"
				+ " \"debezium\"\n  Detail: This replication slot has been invalidated due to \"wal_removed\".";
		assertThat(TaskTraces.summary(trace)).contains("can no longer access replication slot \"debezium\"");
	}

	@Test
	void anUnrelatedFailureIsItsFirstLine() {
		assertThat(TaskTraces.summary("java.lang.OutOfMemoryError: Java heap space\n\tat x.y(Z.java:1)"))
			.isEqualTo("java.lang.OutOfMemoryError: Java heap space");
		assertThat(TaskTraces.summary(null)).isNull();
	}

}
