package io.slotkeeper.debezium;

import java.time.Duration;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.regex.Pattern;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ObjectNode;

import io.slotkeeper.testbed.KafkaBroker;
import io.slotkeeper.testbed.PostgresServer;
import io.slotkeeper.testbed.PostgresTestBed;
import io.slotkeeper.testbed.RealKafkaConnect;
import io.slotkeeper.testbed.TopicReader;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * slot-keeper's Debezium extension on a real Kafka Connect worker running the Debezium
 * PostgreSQL connector, signalled through its signal table as slot-keeper signals it: a
 * batch of keys becomes delete events of the table's own topic, a batch of outbox rows
 * create events equal to those the connector streams for the same rows, and a batch the
 * action refuses (the key columns not the table's key, a key of the wrong type, a column
 * type it cannot read) emits nothing; each signal's acknowledgement in the signal table
 * says which.
 */
@Tag("pipeline")
class GapActionsTests {

	private static final PostgresServer server = PostgresTestBed.shared();

	private static String database;

	private static final String KINDS = "CREATE TABLE kinds (id int PRIMARY KEY, flag bool, small int2, big int8,"
			+ " real4 float4, real8 float8, amount numeric(12, 3), label varchar(20), code char(3), note text, ref uuid,"
			+ " doc jsonb, raw json, day date, at timestamp, at_tz timestamptz, bytes bytea, span int4range)";

	private static final JsonMapper JSON = JsonMapper.builder().build();

	private static final Map<Integer, JsonNode> created = new ConcurrentHashMap<>();

	private static RealKafkaConnect connect;

	private static TopicReader kinds;

	@BeforeAll
	static void connector() {
		database = server.createDatabase();
		server.execute(database, "CREATE TABLE orders (id bigserial PRIMARY KEY, item text NOT NULL)", KINDS,
				"CREATE TABLE debezium_signal (id varchar(42) PRIMARY KEY, type varchar(32) NOT NULL,"
						+ " data varchar(2048))");
		// Debezium skips truncates by default; a consumer that wants them says so.
		connect = new RealKafkaConnect(KafkaBroker.shared(), server, database, "gap_actions",
				Map.of("skipped.operations", "none", "table.include.list",
						"public.orders,public.debezium_signal,public.kinds"));
		kinds = new TopicReader(KafkaBroker.shared().bootstrap(), "kinds-" + connect.prefix(),
				Pattern.compile(Pattern.quote(connect.prefix() + ".public.kinds")), (topic, value) -> {
					JsonNode after = JSON.readTree(value).path("after");
					created.put(after.path("id").asInt(), after);
				});
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
		kinds.close();
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
		assertThat(acknowledgement("deletes"))
			.isEqualTo("{\"signal\":\"deletes\",\"action\":\"slotkeeper-gap-deletes\",\"emitted\":2,\"asked\":2}");
		assertThat(acknowledgement("refused-type")).contains("\"emitted\":0")
			.contains("\"refused\":\"key 1: id is not a");
		assertThat(acknowledgement("refused-table")).contains("the connector does not capture public.customers");
	}

	@Test
	void anEventsRowsAreEmittedAsTheConnectorStreamsTheSameRowAndARowOfATypeItCannotReadIsRefused() {
		server.execute(database, "INSERT INTO kinds VALUES (1, true, 7, 9000000000, 1.5, 2.25, 12345.678, 'label',"
				+ " 'abc', 'a note', '6f1c1d3e-7a8b-4c9d-8e0f-123456789abc', '{\"n\": [1, 2]}', '{\"raw\" : 1}',"
				+ " '2026-12-07', '2026-12-07 10:11:12.345678', '2026-12-07 10:11:12.5+02', '\\x00ff10', NULL)");
		await().atMost(Duration.ofSeconds(30)).until(() -> created.containsKey(1));
		// The row's columns as pgoutput sends them: each type's text output (format's %s;
		// a cast to text differs for bool).
		String values = server.queryForString(database, "SELECT json_agg(v)::text FROM (SELECT unnest(ARRAY['2',"
				+ " format('%s', flag), format('%s', small), format('%s', big), format('%s', real4),"
				+ " format('%s', real8), format('%s', amount), format('%s', label), format('%s', code),"
				+ " format('%s', note), format('%s', ref), format('%s', doc), format('%s', raw), format('%s', day),"
				+ " format('%s', at), format('%s', at_tz), format('%s', bytes)]) AS v FROM kinds WHERE id = 1) AS row");
		String columns = "[\"id\",\"flag\",\"small\",\"big\",\"real4\",\"real8\",\"amount\",\"label\",\"code\","
				+ "\"note\",\"ref\",\"doc\",\"raw\",\"day\",\"at\",\"at_tz\",\"bytes\"]";
		signal("events-refused", "slotkeeper-gap-events", "{\"data-collection\":\"public.kinds\",\"columns\":[\"id\","
				+ "\"span\"],\"rows\":[[\"3\",\"[1,5)\"]]}");
		signal("events", "slotkeeper-gap-events", "{\"data-collection\":\"public.kinds\",\"columns\":" + columns
				+ ",\"rows\":[" + values.replace("'", "''") + "]}");

		assertThat(acknowledgement("events")).contains("\"emitted\":1,\"asked\":1");
		await().atMost(Duration.ofSeconds(30)).until(() -> created.containsKey(2));
		ObjectNode streamed = (ObjectNode) created.get(1).deepCopy();
		streamed.put("id", 2);
		assertThat(created.get(2)).as("emitted from the text of every column as the streamed row").isEqualTo(streamed);
		assertThat(created).doesNotContainKey(3);
		assertThat(acknowledgement("events-refused"))
			.contains("column span is of type int4range, which the extension does not read from text");
	}

	@Test
	void aTruncateSignalBecomesTheTablesTruncateEventAndOneForAnotherTableNone() {
		signal("truncate-refused", "slotkeeper-gap-truncate", "{\"data-collection\":\"public.customers\"}");
		signal("truncate", "slotkeeper-gap-truncate", "{\"data-collection\":\"public.orders\"}");

		await().atMost(Duration.ofSeconds(30)).until(() -> connect.truncates() >= 1);
		assertThat(connect.truncates()).isEqualTo(1);
	}

	// What the extension wrote back, once it streams past the signal.
	private static String acknowledgement(String signal) {
		await().atMost(Duration.ofSeconds(30))
			.until(() -> !"0".equals(server.queryForString(database,
					"SELECT count(*) FROM debezium_signal WHERE id = 'ack:" + signal + "'")));
		return server.queryForString(database,
				"SELECT data FROM debezium_signal WHERE id = 'ack:" + signal + "' AND type = 'slotkeeper-ack'");
	}

	private static void signal(String id, String data) {
		signal(id, "slotkeeper-gap-deletes", data);
	}

	private static void signal(String id, String type, String data) {
		server.execute(database,
				"INSERT INTO debezium_signal (id, type, data) VALUES ('" + id + "', '" + type + "', '" + data + "')");
	}

}
