package io.slotkeeper.fleet;

import java.sql.SQLException;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.api.Test;

import io.slotkeeper.problem.ProblemException;
import io.slotkeeper.problem.ProblemKind;

import static io.slotkeeper.testbed.TestTargets.fleet;
import static io.slotkeeper.testbed.TestTargets.target;
import static org.assertj.core.api.Assertions.assertThat;

class TargetProblemsTests {

	private final Target target = fleet(target("orders", "jdbc:postgresql://db/orders", "username", "keeper",
			"replicas[0].name", "r1", "replicas[0].url", "jdbc:postgresql://r1/orders")).get("orders");

	@ParameterizedTest(name = "SQLState {0} is {1}")
	@CsvSource({ "42501, INSUFFICIENT_PRIVILEGE", "55P03, CHANGE_IN_PROGRESS", "55006, CONFLICT", "42710, CONFLICT",
			"42704, SLOT_NOT_FOUND", "0A000, NOT_SUPPORTED", "08001, TARGET_UNAVAILABLE", "08006, TARGET_UNAVAILABLE",
			"57P01, TARGET_UNAVAILABLE", "57014, TARGET_TIMEOUT", "22012, DATABASE_ERROR" })
	void eachSqlStateBecomesTheProblemOperatorsExpect(String sqlState, ProblemKind kind) {
		ProblemException problem = TargetProblems.of(this.target.primary(), new SQLException("it failed", sqlState));
		assertThat(problem.kind()).isEqualTo(kind);
		assertThat(problem.properties()).containsEntry("sqlState", sqlState).containsEntry("target", "orders")
			.doesNotContainKey("node");
	}

	@Test
	void aFailureWithoutSqlStateIsADatabaseError() {
		assertThat(TargetProblems.of(this.target.primary(), new SQLException("odd")).kind())
			.isEqualTo(ProblemKind.DATABASE_ERROR);
	}

	@Test
	void aReplicasProblemNamesTheReplicaAndItsTarget() {
		ProblemException problem = TargetProblems.of(this.target.node("r1"), new SQLException("refused", "08001"));
		assertThat(problem.getMessage()).isEqualTo("Replica 'r1' of target 'orders' is unavailable: refused");
		assertThat(problem.properties()).containsEntry("target", "orders").containsEntry("node", "r1");
	}

	@Test
	void aMissingPrivilegeSaysWhichRoleNeedsReplication() {
		ProblemException problem = TargetProblems.of(this.target.primary(),
				new SQLException("permission denied to use replication slots", "42501"));
		assertThat(problem.getMessage()).isEqualTo("permission denied to use replication slots. The role of target "
				+ "'orders' needs the REPLICATION attribute to manage slots: ALTER ROLE keeper REPLICATION;");
	}

}
