package io.slotkeeper.bench;

import java.sql.Connection;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import io.slotkeeper.testbed.PostgresServer;

/**
 * WAL written per heartbeat, for each way slot-keeper and its peers write one.
 */
final class WalCostBench {

	/**
	 * Chart labels of the ways, in the table's order.
	 */
	static final List<String> SHORT_WAYS = List.of("message", "message (tx)", "table upsert", "Debezium INSERT",
			"UPDATE 1 row", "CREATE/DROP", "ordered beat");

	private WalCostBench() {
	}

	static void run(BenchReport report, PostgresServer server) throws Exception {
		String database = server.createDatabase();
		server.execute(database,
				"CREATE TABLE slotkeeper_heartbeat (id integer PRIMARY KEY, beat_at timestamptz NOT NULL)",
				"CREATE TABLE debezium_heartbeat (id serial PRIMARY KEY, text varchar(255))",
				"CREATE TABLE one_row (id integer PRIMARY KEY, beat_at timestamptz)",
				"INSERT INTO one_row VALUES (1, now())");
		Map<String, String> ways = new LinkedHashMap<>();
		ways.put("slot-keeper message, non-transactional",
				"SELECT pg_logical_emit_message(false, 'slotkeeper_heartbeat', '')");
		ways.put("slot-keeper message, transactional",
				"SELECT pg_logical_emit_message(true, 'slotkeeper_heartbeat', '')");
		ways.put("slot-keeper table (upsert of one row)",
				"INSERT INTO slotkeeper_heartbeat (id, beat_at) VALUES (1, now())"
						+ " ON CONFLICT (id) DO UPDATE SET beat_at = EXCLUDED.beat_at");
		ways.put("Debezium heartbeat.action.query INSERT",
				"INSERT INTO debezium_heartbeat (text) VALUES ('heartbeat')");
		ways.put("UPDATE of one row", "UPDATE one_row SET beat_at = now() WHERE id = 1");
		ways.put("CREATE/DROP table (PeerDB's original)", "CREATE TABLE hb_trick (); DROP TABLE hb_trick");
		ways.put("slot-keeper ordered beat: message, standby snapshot, message",
				"SELECT pg_logical_emit_message(true, 'slotkeeper_heartbeat', '') ;; SELECT pg_log_standby_snapshot()"
						+ " ;; SELECT pg_logical_emit_message(true, 'slotkeeper_heartbeat', '')");
		int beats = 1000;
		int repetitions = 3;
		List<List<Object>> rows = new ArrayList<>();
		List<Double> medians = new ArrayList<>();
		for (Map.Entry<String, String> way : ways.entrySet()) {
			double[] perBeat = new double[repetitions];
			for (int r = 0; r < repetitions; r++) {
				try (Connection connection = server.connect(database);
						Statement statement = connection.createStatement()) {
					long start = BenchSupport.lsn(statement);
					for (int i = 0; i < beats; i++) {
						// " ;; " separates statements that the heartbeat runs one by one,
						// each in its own transaction.
						for (String sql : way.getValue().split(" ;; ")) {
							statement.execute(sql);
						}
						if (i % 100 == 99) {
							statement.execute("CHECKPOINT");
						}
					}
					perBeat[r] = (BenchSupport.lsn(statement) - start) / (double) beats;
				}
			}
			double median = BenchReport.median(perBeat);
			medians.add(median);
			rows.add(List.of(way.getKey(), String.format("%.0f", median), String.format("%.0f–%.0f",
					Arrays.stream(perBeat).min().orElseThrow(), Arrays.stream(perBeat).max().orElseThrow())));
		}
		BenchReport.barChart("wal-per-heartbeat.png", "WAL written per heartbeat (incl. a CHECKPOINT every 100)",
				"bytes per heartbeat", SHORT_WAYS, Map.of("median bytes", medians));
		report.section("## 1. WAL cost of one heartbeat\n\n" + beats + " heartbeats per way, a `CHECKPOINT` after every"
				+ " 100 (so full-page images count), " + repetitions + " repetitions; bytes per heartbeat from the LSN"
				+ " difference (the checkpoints' own records included, equally for every way).\n\n"
				+ BenchReport.table(List.of("way", "bytes per heartbeat (median)", "range"), rows)
				+ "\nThe smallest possible logical-message record, for prefix `slotkeeper_heartbeat` (20 characters + NUL"
				+ " = 21 bytes) and empty content: XLogRecord header 24 bytes + short data header 2 bytes +"
				+ " `xl_logical_message` 24 bytes (dbId 4, transactional 1, padding 3, prefix_size 8, message_size 8)"
				+ " + 21 bytes of prefix = 71 bytes, aligned to 8 = **72 bytes**. A transactional message adds a commit"
				+ " record. Everything above that in the table is the cost of the way (heap tuples, indexes, catalog"
				+ " changes, full-page images after each checkpoint).\n\n![WAL per heartbeat](wal-per-heartbeat.png)\n");
	}

}
