package io.slotkeeper.debezium;

import java.time.Duration;
import java.util.Map;
import java.util.Set;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

import io.slotkeeper.testbed.KafkaBroker;
import io.slotkeeper.testbed.PostgresServer;
import io.slotkeeper.testbed.PostgresTestBed;
import io.slotkeeper.testbed.RealKafkaConnect;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * slot-keeper's Debezium extension on a real Kafka Connect worker running the Debezium
 * PostgreSQL connector, signalled through its signal table as slot-keeper signals it: a
 * batch of keys becomes delete events of the table's own topic, and a batch the action
 * refuses (the key columns not the table's key, a key of the wrong type) emits nothing.
 */
@Tag("pipeline")
class GapActionsTests {

	private static final PostgresServer server = PostgresTestBed.shared();

	private static String database;

	private static RealKafkaConnect connect;

	@BeforeAll
	static void connector() {
		database = server.createDatabase();
		server.execute(database, "CREATE TABLE orders (id bigserial PRIMARY KEY, item text NOT NULL)",
				"CREATE TABLE debezium_signal (id varchar(42) PRIMARY KEY, type varchar(32) NOT NULL,"
						+ " data varchar(2048))");
		// Debezium skips truncates by default; a consumer that wants them says so.
		connect = new RealKafkaConnect(KafkaBroker.shared(), server, database, "gap_actions",
				Map.of("skipped.operations", "none"));
		// RUNNING comes before the task's slot: rows written before it would never
		// stream.
		await().atMost(Duration.ofSeconds(60))
			.until(() -> "t".equals(server.queryForString("postgres",
					"SELECT bool_or(active) FROM pg_replication_slots WHERE slot_name = 'gap_actions'")));
		server.execute(database, "INSERT INTO orders (item) SELECT 'item ' || n FROM generate_series(1, 10) n");
		await().atMost(Duration.ofSeconds(60)).until(() -> connect.deliveries().size() == 10);
	}

	@AfterAll
	static void close() {
		connect.close();
	}

	@Test
	void aBatchOfKeysBecomesDeleteEventsOfTheTableAndARefusedBatchNone() {
		signal("refused-columns",
				"{\"data-collection\":\"public.orders\",\"key-columns\":[\"item\"]," + "\"keys\":[[\"5\"]]}");
		signal("refused-type",
				"{\"data-collection\":\"public.orders\",\"key-columns\":[\"id\"]," + "\"keys\":[[\"6\"],[\"six\"]]}");
		signal("refused-table",
				"{\"data-collection\":\"public.customers\",\"key-columns\":[\"id\"]," + "\"keys\":[[\"4\"]]}");
		signal("deletes", "{\"data-collection\":\"public.orders\",\"key-columns\":[\"id\"],\"keys\":[[\"3\"],[7]]}");

		await().atMost(Duration.ofSeconds(30)).until(() -> connect.deleted().containsAll(Set.of(3L, 7L)));
		// The signals are processed in order on the streaming thread: the refused ones
		// are
		// done by now.
		assertThat(connect.deleted()).containsExactlyInAnyOrder(3L, 7L);
	}

	@Test
	void aTruncateSignalBecomesTheTablesTruncateEventAndOneForAnotherTableNone() {
		signal("truncate-refused", "slotkeeper-gap-truncate", "{\"data-collection\":\"public.customers\"}");
		signal("truncate", "slotkeeper-gap-truncate", "{\"data-collection\":\"public.orders\"}");

		await().atMost(Duration.ofSeconds(30)).until(() -> connect.truncates() >= 1);
		assertThat(connect.truncates()).isEqualTo(1);
	}

	private static void signal(String id, String data) {
		signal(id, "slotkeeper-gap-deletes", data);
	}

	private static void signal(String id, String type, String data) {
		server.execute(database,
				"INSERT INTO debezium_signal (id, type, data) VALUES ('" + id + "', '" + type + "', '" + data + "')");
	}

}
