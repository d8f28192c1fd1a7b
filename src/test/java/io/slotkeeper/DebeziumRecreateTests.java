package io.slotkeeper;

import java.nio.file.Path;
import java.sql.Connection;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import io.slotkeeper.fleet.Fleet;
import io.slotkeeper.gap.GapJournals;
import io.slotkeeper.gap.SlotCopies;
import io.slotkeeper.lineage.TableCounters;
import io.slotkeeper.sessions.Lsn;
import io.slotkeeper.testbed.CdcConnector;
import io.slotkeeper.testbed.EngineConnect;
import io.slotkeeper.testbed.KafkaBroker;
import io.slotkeeper.testbed.OutboxTopic;
import io.slotkeeper.testbed.PostgresServer;
import io.slotkeeper.testbed.RealKafkaConnect;
import io.slotkeeper.testbed.SlotRecipes;

import io.slotkeeper.RecoveryPipeline.Pipeline;

import static io.slotkeeper.RecoveryPipeline.OPERATOR;
import static io.slotkeeper.RecoveryPipeline.ids;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The measured story of issue 12 on a real Kafka Connect distributed worker running the
 * Debezium 3.6 PostgreSQL connector on a real Kafka broker, every row counted in the
 * table's topic: rows 1–200 captured, the task fails (or the whole worker is killed),
 * rows 201–400 are written, the slot is lost, slot-keeper's healing recreates it and
 * hands the connector over, then rows 401–500 are written. With offsets aligned and a
 * re-snapshot signal nothing is missing; aligned alone, the rows written while the slot
 * was lost are; restarted only, the task fails and slot-keeper says so. Only what a real
 * worker cannot be made to do (a Kafka Connect without the offsets API) runs on the
 * embedded engine behind a REST stand-in ({@link EngineConnect}).
 */
@Tag("pipeline")
class DebeziumRecreateTests {

	static CdcConnector realWorker(PostgresServer server, String database, Map<String, String> settings) {
		return new RealKafkaConnect(KafkaBroker.shared(), server, database, "debezium", settings);
	}

	@Test
	void alignedOffsetsAndAResnapshotSignalLeaveNoRowMissing() throws Exception {
		try (Pipeline pipeline = new Pipeline(DebeziumRecreateTests::realWorker, "align", "debezium-signal")) {
			long lost = pipeline.healAfterALoss();
			long lastMissing = pipeline.writeTheRestAndAwaitEveryRow();
			Set<Long> written = pipeline.written();
			int duplicates = (int) (pipeline.engine.events() - pipeline.engine.deliveries().size());
			System.out.printf(
					"debezium, offsets aligned + resnapshot signal: 0 of %d rows missing; the last row written"
							+ " while the slot was lost arrived %d ms after the loss; %d duplicates%n",
					written.size(), (lastMissing - lost) / 1_000_000, duplicates);
			pipeline.client.get()
				.uri("/api/v1/audit")
				.exchange()
				.expectBody()
				.jsonPath("$[?(@.action == 'slot.handover')].lsns.resnapshot")
				.value((sent) -> assertThat(sent.toString()).contains("signal ").contains("public.orders"));
			pipeline.client.get()
				.uri("/api/v1/targets/orders/slots/debezium/connector")
				.exchange()
				.expectStatus()
				.isOk()
				.expectBody()
				.jsonPath("$.lastHandover.method")
				.isEqualTo("align")
				.jsonPath("$.lastHandover.completedFrom")
				.isEqualTo("stopped")
				.jsonPath("$.lastHandover.running")
				.isEqualTo(true)
				.jsonPath("$.lastHandover.offsetsBefore[0].offset.lsn")
				.exists()
				.jsonPath("$.lastHandover.offsetsAfter[0].offset.lsn")
				.exists();
			pipeline.client.get()
				.uri("/actuator/health/slots/orders")
				.exchange()
				.expectBody()
				.jsonPath("$.details.connectorNotRunning")
				.doesNotExist();
		}
	}

	@Test
	void rowsDeletedAndOutboxEventsWhileTheSlotWasLostStayWrongDownstreamWithoutTheExtensionAndTheHealCountsThem()
			throws Exception {
		try (OutboxTopic outbox = new OutboxTopic(KafkaBroker.shared());
				Pipeline pipeline = new Pipeline(DebeziumRecreateTests::realWorker, outbox.connectorSettings(),
						List.of(OutboxTopic.TABLE), (built) -> built.healing("align", "debezium-signal", "recreate"))) {
			TableCounters counters = pipeline.app.getBean(Fleet.class).get("orders").tableCounters();
			pipeline.write(1, 200);
			outbox.write(pipeline.server, pipeline.database, 1, 3);
			await().atMost(Duration.ofSeconds(30))
				.until(() -> pipeline.engine.deliveries().keySet().containsAll(ids(1, 200))
						&& outbox.received().size() == 3);
			// As after days of running: the consumer confirmed a position later than a
			// reading.
			await().atMost(Duration.ofSeconds(30))
				.until(() -> counters
					.before(Lsn.parse(pipeline.server.queryForString(pipeline.database,
							"SELECT confirmed_flush_lsn FROM pg_replication_slots WHERE" + " slot_name = 'debezium'")))
					.isPresent());
			pipeline.engine.crash();
			pipeline.server.execute(pipeline.database, "DELETE FROM orders WHERE id IN (5, 6, 7)");
			pipeline.write(201, 400);
			outbox.write(pipeline.server, pipeline.database, 4, 8);
			SlotRecipes.lose(pipeline.server, pipeline.database, "debezium");
			pipeline.awaitHeal();
			pipeline.writeTheRestAndAwaitEveryRow();
			outbox.write(pipeline.server, pipeline.database, 9, 10);
			await().atMost(Duration.ofSeconds(60)).until(() -> outbox.received().containsAll(List.of(9, 10)));
			assertThat(outbox.received()).as("the events written while the slot was lost, gone for good")
				.containsExactlyInAnyOrder(1, 2, 3, 9, 10);
			RealKafkaConnect worker = (RealKafkaConnect) pipeline.engine;
			assertThat(pipeline.missing()).isEmpty();
			assertThat(worker.deliveries().keySet()).as("the deleted rows, still in the consumer's view")
				.contains(5L, 6L, 7L);
			assertThat(worker.deleted()).as("no delete event reached the consumer").isEmpty();
			String deletes = String.valueOf(pipeline.audit("slot.heal").get(0).get("lsns"));
			assertThat(deletes).contains("deletesInGap=public.orders 3");
			pipeline.client.get()
				.uri("/api/v1/targets/orders/slots")
				.exchange()
				.expectBody()
				.jsonPath("$[?(@.slotName == 'debezium')].lineage.deletesInGap.tables['public.orders']")
				.isEqualTo(List.of(3));
			System.out.printf(
					"debezium, 3 rows deleted and 5 outbox events written while the slot was lost, without the"
							+ " extension: 0 of %d existing rows missing, the 3 deleted rows still delivered and no"
							+ " delete event for them, outbox events routed %d of 10; the heal said: %s%n",
					pipeline.written().size(), outbox.received().size(),
					deletes.replaceAll(".*(deletesInGap=[^,}]*).*", "$1"));
		}
	}

	@Test
	void aGapJournaledWhileTheTaskWasDownIsToldExactlyAndOnlyItsChangedRowsAreReadAgainAndItsDeletesAndEventsDelivered()
			throws Exception {
		try (OutboxTopic outbox = new OutboxTopic(KafkaBroker.shared());
				Pipeline pipeline = new Pipeline(DebeziumRecreateTests::realWorker, outbox.connectorSettings(),
						List.of(OutboxTopic.TABLE), (built) -> {
							List<String> args = new java.util.ArrayList<>(
									built.healing("align", "debezium-signal", "recreate"));
							args.add("--slotkeeper.gap-journal.after=1s");
							args.add("--slotkeeper.targets[0].slots[0].resnapshot.deletes=signal");
							args.add("--slotkeeper.targets[0].slots[0].resnapshot.outbox-tables=public.outbox");
							return args;
						})) {
			outbox.write(pipeline.server, pipeline.database, 1, 3);
			pipeline.journalAfterACrash();
			// A signal column as narrow as some are made: the keys' filter no longer fits
			// one signal row, and is read in slices, a signal each.
			pipeline.server.execute(pipeline.database,
					"ALTER TABLE debezium_signal ALTER COLUMN data TYPE varchar(300)");
			pipeline.server.execute(pipeline.database, "DELETE FROM orders WHERE id BETWEEN 101 AND 105",
					"UPDATE orders SET item = 'changed' WHERE id BETWEEN 151 AND 155");
			pipeline.write(201, 400);
			outbox.write(pipeline.server, pipeline.database, 4, 13);
			// The race the deletes' signals close: row 103, deleted in the gap, is
			// inserted
			// again after slot-keeper found it gone and before its signals commit (held
			// by
			// this lock on the signal table), so its insert streams before its delete.
			CompletableFuture<Void> reinsert;
			try (Connection holder = pipeline.server.connect(pipeline.database)) {
				holder.setAutoCommit(false);
				holder.createStatement().execute("LOCK TABLE debezium_signal IN SHARE MODE");
				reinsert = CompletableFuture.runAsync(() -> {
					await().atMost(Duration.ofSeconds(90))
						.pollInterval(Duration.ofMillis(50))
						.until(() -> !"0".equals(pipeline.server.queryForString(pipeline.database,
								"SELECT count(*) FROM pg_locks WHERE NOT granted AND relation ="
										+ " 'debezium_signal'::regclass")));
					pipeline.server.execute(pipeline.database, "INSERT INTO orders (id, item) VALUES (103, 'back')");
					try {
						holder.commit();
					}
					catch (java.sql.SQLException ex) {
						throw new IllegalStateException(ex);
					}
				});
				SlotRecipes.loseBeforeItsCopy(pipeline.server, pipeline.database, "debezium",
						SlotCopies.copyOf("debezium"));
				reinsert.get(120, TimeUnit.SECONDS);
			}
			long lost = System.nanoTime();
			pipeline.awaitHeal();
			long lossRows = Long.parseLong(pipeline.server.queryForString(pipeline.database,
					"SELECT count(*) FROM orders WHERE id >= 1000000"));
			pipeline.writeTheRestAndAwaitEveryRow();
			outbox.write(pipeline.server, pipeline.database, 14, 16);
			RealKafkaConnect worker = (RealKafkaConnect) pipeline.engine;
			await().atMost(Duration.ofSeconds(120))
				.pollInterval(Duration.ofMillis(500))
				.until(() -> worker.lastSnapshotReadAt() != 0
						&& System.nanoTime() - worker.lastSnapshotReadAt() > 3_000_000_000L);
			String heal = String.valueOf(pipeline.audit("slot.heal").get(0).get("lsns"));
			String handover = String.valueOf(pipeline.audit("slot.handover").get(0).get("lsns"));
			assertThat(heal).contains("public.orders " + (200 + lossRows) + " inserted, 5 updated, 5 deleted");
			assertThat(worker.snapshotReads())
				.as("rows read again: the keys inserted or updated in the gap, and 103, back after its delete")
				.isEqualTo(206 + lossRows);
			assertThat(Integer.parseInt(pipeline.server.queryForString(pipeline.database,
					"SELECT count(*) FROM debezium_signal WHERE type = 'execute-snapshot'")))
				.as("signals, the keys in slices")
				.isGreaterThan(1);
			assertThat(handover).contains("signals of their own");
			assertThat(heal).contains("deletesInGap=public.orders 5, public.outbox 10 (exact, from the gap journal)");
			assertThat(pipeline.missing()).isEmpty();
			assertThat(worker.deliveries().get(153L)).as("a row updated while the task was down, read again")
				.isGreaterThanOrEqualTo(2);
			assertThat(worker.deliveries().get(120L)).as("a row unchanged in the gap, not read again").isEqualTo(1);
			await().atMost(Duration.ofSeconds(30)).until(() -> worker.deleted().containsAll(ids(101, 105)));
			assertThat(worker.deleted()).as("the rows deleted in the gap, delivered as deletes by the extension")
				.containsExactlyInAnyOrderElementsOf(ids(101, 105));
			assertThat(handover).contains("5 deletes signalled (1 slotkeeper-gap-deletes signal)")
				.contains("read again after them")
				.doesNotContain("could not be told");
			await().atMost(Duration.ofSeconds(60)).until(() -> Boolean.TRUE.equals(worker.alive(103)));
			assertThat(worker.alive(104)).as("a row deleted in the gap, deleted downstream").isFalse();
			await().atMost(Duration.ofSeconds(60)).until(() -> outbox.received().size() == 16);
			assertThat(outbox.received()).as("every event, the 10 written while the slot was lost included")
				.containsExactlyInAnyOrderElementsOf(java.util.stream.IntStream.rangeClosed(1, 16).boxed().toList());
			assertThat(handover).contains("10 events signalled (");
			Map<?, ?> delivery = pipeline.awaitGapDelivery();
			assertThat(delivery.get("outcome")).isEqualTo("done");
			assertThat(String.valueOf(delivery.get("lsns"))).contains("public.orders=5 deletes delivered")
				.contains("public.outbox=10 events delivered");
			pipeline.client.get()
				.uri("/api/v1/targets/orders/slots/debezium/gap")
				.exchange()
				.expectBody()
				.jsonPath("$.delivery.finished")
				.isEqualTo(true)
				.jsonPath("$.delivery.signals[?(@.state == 'DELIVERED')]")
				.value((delivered) -> assertThat((List<?>) delivered).hasSizeGreaterThan(1));
			assertThat(pipeline.pageLine("debezium", "gap-delivery", (line) -> line.contains("delivered:")))
				.isEqualTo("gap delivery: delivered: public.orders 5 deletes delivered; public.outbox 10"
						+ " events delivered");
			System.out
				.printf("debezium, a gap journaled while the task was down (5 deleted, 5 updated, %d inserted, of a table"
						+ " of %d rows at the loss): the heal said \"%s\"; %d rows read again (the table: %d), re-read"
						+ " done %d ms after the loss, 0 of %d rows missing; %s execute-snapshot signals; deletes"
						+ " delivered by the extension %d of 5; outbox events routed %d of 16 (%d records); the extension"
						+ " acknowledged: %s%n", 200 + lossRows, 395 + lossRows,
						heal.replaceAll(".*gap=([^}]*).*", "$1"), worker.snapshotReads(), 395 + lossRows,
						(worker.lastSnapshotReadAt() - lost) / 1_000_000, pipeline.written().size(),
						pipeline.server.queryForString(pipeline.database,
								"SELECT count(*) FROM debezium_signal WHERE type = 'execute-snapshot'"),
						worker.deleted().size(), outbox.received().size(), outbox.records(), delivery.get("lsns"));
		}
	}

	@Test
	void alignedOffsetsAloneResumeTheTaskButMissTheRowsWrittenWhileTheSlotWasLost() throws Exception {
		try (Pipeline pipeline = new Pipeline(DebeziumRecreateTests::realWorker, "align", "none")) {
			pipeline.healAfterALoss();
			assertThat(pipeline.engine.state()).isEqualTo("RUNNING");
			pipeline.write(401, 500);
			await().atMost(Duration.ofSeconds(60))
				.until(() -> pipeline.engine.deliveries().keySet().containsAll(ids(401, 500)));
			Set<Long> missing = pipeline.missing();
			System.out.printf("debezium, offsets aligned, no resnapshot: %d of %d rows missing%n", missing.size(),
					pipeline.written().size());
			assertThat(missing).containsAll(ids(201, 400))
				.doesNotContainAnyElementsOf(ids(1, 200))
				.doesNotContainAnyElementsOf(ids(401, 500));
		}
	}

	@Test
	void aRestartAloneLeavesTheTaskFailedAndSlotKeeperSaysSo() throws Exception {
		try (Pipeline pipeline = new Pipeline(DebeziumRecreateTests::realWorker, "leave", "none")) {
			pipeline.healAfterALoss();
			await().atMost(Duration.ofSeconds(30)).until(() -> "FAILED".equals(pipeline.engine.state()));
			pipeline.write(401, 500);
			System.out.printf("debezium, restart only: the task failed; %d of %d rows missing%n",
					pipeline.missing().size(), pipeline.written().size());
			pipeline.client.get()
				.uri("/api/v1/audit")
				.exchange()
				.expectBody()
				.jsonPath("$[?(@.action == 'slot.handover')].connector")
				.value((connector) -> assertThat(connector.toString()).contains("restart, not running")
					.contains("The connector is trying to read change stream starting at"));
			await().atMost(Duration.ofSeconds(5))
				.untilAsserted(() -> pipeline.client.get()
					.uri("/actuator/health/slots/orders")
					.exchange()
					.expectStatus()
					.isEqualTo(503)
					.expectBody()
					.jsonPath("$.details.connectorNotRunning.debezium")
					.value((why) -> assertThat(why.toString()).contains("task 0 FAILED")));
			pipeline.client.get()
				.uri("/api/v1/targets/orders/slots/debezium/connector")
				.exchange()
				.expectStatus()
				.isOk()
				.expectBody()
				.jsonPath("$.tasks[0].state")
				.isEqualTo("FAILED")
				.jsonPath("$.lastHandover.method")
				.isEqualTo("restart")
				.jsonPath("$.lastHandover.running")
				.isEqualTo(false)
				.jsonPath("$.offsets[0].partition.server")
				.isEqualTo(pipeline.engine.prefix());
		}
	}

	@Test
	void withoutTheOffsetsApiTheRecreateStillStandsAndSaysWhatItCouldNotDo(@TempDir Path offsets) throws Exception {
		try (Pipeline pipeline = new Pipeline(
				(server, database, settings) -> new EngineConnect(server, database, "debezium", offsets, settings),
				"align", "debezium-signal")) {
			((EngineConnect) pipeline.engine).withoutOffsetsApi();
			pipeline.healAfterALoss();
			await().atMost(Duration.ofSeconds(30)).until(() -> "FAILED".equals(pipeline.engine.state()));
			assertThat(pipeline.server.queryForString(pipeline.database,
					"SELECT wal_status FROM pg_replication_slots WHERE slot_name = 'debezium'"))
				.isEqualTo("reserved");
			pipeline.client.get()
				.uri("/api/v1/audit")
				.exchange()
				.expectBody()
				.jsonPath("$[?(@.action == 'slot.handover')].connector")
				.value((connector) -> assertThat(connector.toString()).contains("restart, not running")
					.contains("no offsets API"))
				.jsonPath("$[?(@.action == 'slot.handover')].lsns.resnapshot")
				.value((resnapshot) -> assertThat(resnapshot.toString()).contains("not sent")
					.contains("does not run again"));
		}
	}

	@Test
	void aRecreateThroughTheApiTakesTheSignalsDefaultsFromTheConnectorsConfiguration() throws Exception {
		try (Pipeline pipeline = new Pipeline(DebeziumRecreateTests::realWorker, "align", "debezium-signal", "alert")) {
			pipeline.loseAfterACrash();
			pipeline.client.mutate()
				.defaultHeader("Authorization", "Bearer " + OPERATOR)
				.build()
				.post()
				.uri("/api/v1/targets/orders/slots/debezium/recreate")
				.exchange()
				.expectStatus()
				.isOk()
				.expectBody()
				.jsonPath("$.connector.method")
				.isEqualTo("align")
				.jsonPath("$.connector.running")
				.isEqualTo(true)
				.jsonPath("$.resnapshot.collections")
				.isEqualTo(List.of("public.orders"));
			pipeline.write(401, 500);
			Set<Long> written = pipeline.written();
			await().atMost(Duration.ofSeconds(90))
				.until(() -> pipeline.engine.deliveries().keySet().containsAll(written));
			System.out.printf("debezium, recreate through the API, defaults from the connector's configuration: 0 of"
					+ " %d rows missing%n", written.size());
		}
	}

	@Test
	void aHealWhileKafkaConnectIsDownIsCompletedWhenItComesBackEvenByTheNextPodAndNoRowIsMissing() throws Exception {
		try (Pipeline pipeline = new Pipeline(DebeziumRecreateTests::realWorker, "align", "debezium-signal")) {
			long lost = pipeline.loseAfter(pipeline.engine::workerDown);
			pipeline.awaitHeal();
			assertThat(pipeline.audit("slot.heal").get(0).toString()).contains("handover under way");
			assertThat(pipeline.audit("slot.handover").get(0).toString()).contains("pending")
				.contains("Kafka Connect could not be reached")
				.contains("deferred");
			pipeline.client.get()
				.uri("/api/v1/targets/orders/slots/debezium/connector")
				.exchange()
				.expectBody()
				.jsonPath("$.lastHandover.method")
				.isEqualTo("pending");
			assertThat(pipeline.server.queryForString(pipeline.database,
					"SELECT slot || ' ' || connector FROM" + " slotkeeper.handovers"))
				.isEqualTo("debezium orders-debezium");
			pipeline.connectStaysDownAfterTheRecreate();
			pipeline.restartApplication();
			pipeline.engine.workerUp();
			long up = System.nanoTime();
			String handedOver = pipeline.awaitKeptHandover();
			long completed = System.nanoTime();
			assertThat(handedOver).contains("align, RUNNING").contains("signal ").contains("alignedTo");
			long lastMissing = pipeline.writeTheRestAndAwaitEveryRow();
			Set<Long> written = pipeline.written();
			System.out.printf("debezium, Kafka Connect down through the heal and a restart of slot-keeper: 0 of %d rows"
					+ " missing; handover completed %d ms after Connect came back; the last row written while the slot"
					+ " was lost arrived %d ms after Connect came back (%d ms after the loss)%n", written.size(),
					(completed - up) / 1_000_000, (lastMissing - up) / 1_000_000, (lastMissing - lost) / 1_000_000);
			assertThat(pipeline.engine.state()).isEqualTo("RUNNING");
			assertThat(pipeline.server.queryForString(pipeline.database, "SELECT count(*) FROM slotkeeper.handovers"))
				.isEqualTo("0");
		}
	}

	@Test
	void aConnectorItsUserStoppedIsAlignedAndLeftStoppedAndMissesNoRowOnceTheUserResumesIt() throws Exception {
		try (Pipeline pipeline = new Pipeline(DebeziumRecreateTests::realWorker, "align", "debezium-signal")) {
			RealKafkaConnect worker = (RealKafkaConnect) pipeline.engine;
			pipeline.loseAfter(() -> {
				assertThat(worker.put("/stop")).isEqualTo(204);
				await().atMost(Duration.ofSeconds(30))
					.until(() -> "STOPPED".equals(worker.state()) && "0".equals(pipeline.server.queryForString(
							pipeline.database,
							"SELECT count(*) FROM" + " pg_replication_slots WHERE slot_name = 'debezium' AND active")));
			});
			pipeline.awaitHeal();
			assertThat(pipeline.audit("slot.handover").get(0).toString()).contains("align, left stopped as it was");
			await("the user's stop stands").during(Duration.ofSeconds(5))
				.atMost(Duration.ofSeconds(7))
				.until(() -> "STOPPED".equals(worker.state()));
			String confirmed = pipeline.server.queryForString(pipeline.database,
					"SELECT confirmed_flush_lsn FROM" + " pg_replication_slots WHERE slot_name = 'debezium'");
			pipeline.client.get()
				.uri("/api/v1/targets/orders/slots/debezium/connector")
				.exchange()
				.expectBody()
				.jsonPath("$.lastHandover.method")
				.isEqualTo("align")
				.jsonPath("$.lastHandover.leftAs")
				.isEqualTo("stopped")
				.jsonPath("$.lastHandover.running")
				.isEqualTo(false)
				.jsonPath("$.offsets[0].offset.lsn")
				.value(Number.class, (lsn) -> assertThat(lsn.longValue()).as("aligned to the new slot")
					.isEqualTo(Lsn.parse(confirmed)));

			long resumed = System.nanoTime();
			assertThat(worker.put("/resume")).isEqualTo(202);
			long lastMissing = pipeline.writeTheRestAndAwaitEveryRow();
			System.out.printf("debezium stopped by its user before the loss: left stopped through the heal, offsets at"
					+ " the new slot's %s; once resumed by the user 0 of %d rows missing, the last row written while"
					+ " the slot was lost arriving %d ms after the resume%n", confirmed, pipeline.written().size(),
					(lastMissing - resumed) / 1_000_000);
		}
	}

	@Test
	void aRestartAloneWhenKafkaConnectComesBackLeavesTheTaskFailedAndTheRowsMissing() throws Exception {
		try (Pipeline pipeline = new Pipeline(DebeziumRecreateTests::realWorker, "leave", "none")) {
			pipeline.loseAfter(pipeline.engine::workerDown);
			pipeline.awaitHeal();
			pipeline.connectStaysDownAfterTheRecreate();
			pipeline.engine.workerUp();
			String handedOver = pipeline.awaitKeptHandover();
			pipeline.write(401, 500);
			// A real worker that comes back starts the task on its stale offset at once:
			// the server streams from the
			// new slot's start, so the task may run on, but what was written while the
			// slot was lost never comes.
			await().atMost(Duration.ofSeconds(30))
				.until(() -> "FAILED".equals(pipeline.engine.state())
						|| pipeline.engine.deliveries().containsKey(500L));
			System.out.printf(
					"debezium, Kafka Connect down through the heal, restart only when it came back: the task"
							+ " is %s; %d of %d rows missing%n",
					pipeline.engine.state(), pipeline.missing().size(), pipeline.written().size());
			assertThat(pipeline.missing()).containsAll(ids(201, 400));
			assertThat(handedOver).contains("restart");
		}
	}

	@Test
	void withDebeziumTrustingTheGreaterLsnARestartAndAResnapshotLeaveNoRowMissing() throws Exception {
		try (Pipeline pipeline = new Pipeline(DebeziumRecreateTests::realWorker, "align", "debezium-signal", "recreate",
				Map.of("offset.mismatch.strategy", "trust_greater_lsn"))) {
			long lost = pipeline.healAfterALoss();
			assertThat(pipeline.audit("slot.handover").get(0).toString())
				.contains("restart (Debezium's offset.mismatch.strategy=trust_greater_lsn resumes from the new slot by"
						+ " itself: restarted only, offsets left alone), RUNNING")
				.contains("signal ");
			pipeline.client.get()
				.uri("/api/v1/targets/orders/slots/debezium/connector")
				.exchange()
				.expectBody()
				.jsonPath("$.lastHandover.method")
				.isEqualTo("restart")
				.jsonPath("$.lastHandover.completedFrom")
				.isEqualTo("self-healing")
				.jsonPath("$.lastHandover.reason")
				.value((why) -> assertThat(why.toString()).contains("trust_greater_lsn"))
				.jsonPath("$.lastHandover.offsetsAfter")
				.doesNotExist();
			long lastMissing = pipeline.writeTheRestAndAwaitEveryRow();
			Set<Long> written = pipeline.written();
			System.out.printf("debezium, offset.mismatch.strategy=trust_greater_lsn, restart only + resnapshot signal:"
					+ " 0 of %d rows missing; the last row written while the slot was lost arrived %d ms after the"
					+ " loss%n", written.size(), (lastMissing - lost) / 1_000_000);
			assertThat(pipeline.engine.state()).isEqualTo("RUNNING");
		}
	}

	@Test
	void aTaskFailedOnAnOffsetOlderThanItsSlotIsAlignedAndResnapshottedWithoutARecreate() throws Exception {
		try (Pipeline pipeline = new Pipeline(DebeziumRecreateTests::realWorker, "align", "debezium-signal")) {
			long replaced = pipeline.replaceTheSlotBehindTheConnector();
			await().atMost(Duration.ofSeconds(60)).until(() -> !pipeline.audit("slot.handover").isEmpty());
			assertThat(pipeline.audit("slot.handover").get(0).toString())
				.contains("its task failed on a stored offset older than the slot")
				.contains("align, RUNNING")
				.contains("signal ");
			assertThat(pipeline.audit("slot.heal")).as("the slot itself was not recreated").isEmpty();
			long lastMissing = pipeline.writeTheRestAndAwaitEveryRow();
			Set<Long> written = pipeline.written();
			System.out.printf("debezium, task failed on an offset older than its slot (the slot replaced behind it):"
					+ " 0 of %d rows missing; the last row written before the replacement arrived %d ms after the"
					+ " task restarted%n", written.size(), (lastMissing - replaced) / 1_000_000);
		}
	}

	@Test
	void aTaskFailedOnAnOffsetOlderThanItsSlotIsReportedWhenItsOffsetsAreLeftAlone() throws Exception {
		try (Pipeline pipeline = new Pipeline(DebeziumRecreateTests::realWorker, "leave", "none")) {
			pipeline.replaceTheSlotBehindTheConnector();
			await().atMost(Duration.ofSeconds(30))
				.untilAsserted(() -> pipeline.client.get()
					.uri("/actuator/health/slots/orders")
					.exchange()
					.expectStatus()
					.isEqualTo(503)
					.expectBody()
					.jsonPath("$.details.connectorStaleOffset.debezium")
					.value((why) -> assertThat(why.toString()).contains("no longer available on the server")));
			pipeline.client.get()
				.uri("/actuator/prometheus")
				.exchange()
				.expectBody(String.class)
				.value((metrics) -> assertThat(metrics)
					.contains("slotkeeper_connector_stale_offset{slot=\"debezium\",target=\"orders\"} 1.0"));
			assertThat(pipeline.audit("slot.handover")).isEmpty();
			pipeline.write(401, 500);
			System.out.printf("debezium, task failed on an offset older than its slot, offsets left alone: reported;"
					+ " %d of %d rows missing%n", pipeline.missing().size(), pipeline.written().size());
			assertThat(pipeline.missing()).containsAll(ids(201, 500));
		}
	}

	@Test
	void aResnapshotOfOnlyTheChangedTablesReadsAFractionOfTheRowsAndMissesNoneEither() throws Exception {
		Resnapshotted whole = resnapshotAfterALoss("all", null);
		Resnapshotted changed = resnapshotAfterALoss("changed", null);
		Resnapshotted narrowed = resnapshotAfterALoss("changed", "public.orders.updated_at");
		for (Resnapshotted run : List.of(whole, changed, narrowed)) {
			System.out.printf(
					"debezium, re-snapshot after a loss (%d old orders and 2 idle tables of %d rows): %s: %d"
							+ " rows re-read, done %d ms after the loss, %d of %d rows written in the test missing%n",
					OLD_ROWS, OLD_ROWS, run.how(), run.reread(), run.doneMillis(), run.missing(), run.written());
			assertThat(run.missing()).as(run.how()).isZero();
		}
		assertThat(whole.reread()).isGreaterThanOrEqualTo(3L * OLD_ROWS);
		assertThat(changed.reread()).isGreaterThanOrEqualTo(OLD_ROWS).isLessThan(2L * OLD_ROWS);
		assertThat(changed.audit()).contains("skipped as unchanged: public.customers, public.products");
		assertThat(narrowed.reread()).isLessThan(OLD_ROWS / 10);
		assertThat(narrowed.audit()).contains("narrowed: {public.orders=\"updated_at\" >= '");
	}

	private static final int OLD_ROWS = 20_000;

	// Orders: old ones loaded before, and the test's written before, during and after the
	// loss; customers and
	// products loaded before and never written again.
	private static Resnapshotted resnapshotAfterALoss(String tables, String updateColumn) throws Exception {
		List<String> setup = List.of("ALTER TABLE orders ADD COLUMN updated_at timestamptz NOT NULL DEFAULT now()",
				"INSERT INTO orders (id, item, updated_at) SELECT n, 'old ' || n, now() - interval '1 day' FROM"
						+ " generate_series(100001, " + (100_000 + OLD_ROWS) + ") AS n",
				"CREATE TABLE customers (id bigint PRIMARY KEY, name text)",
				"CREATE TABLE products (id bigint PRIMARY KEY, name text)",
				"INSERT INTO customers SELECT n, 'customer ' || n FROM generate_series(1, " + OLD_ROWS + ") AS n",
				"INSERT INTO products SELECT n, 'product ' || n FROM generate_series(1, " + OLD_ROWS + ") AS n");
		Map<String, String> connector = Map.of("table.include.list",
				"public.orders,public.customers,public.products,public.debezium_signal");
		try (Pipeline pipeline = new Pipeline(DebeziumRecreateTests::realWorker, connector, setup, (built) -> {
			List<String> args = new java.util.ArrayList<>(built.healing("align", "debezium-signal", "recreate"));
			args.add("--slotkeeper.targets[0].slots[0].resnapshot.tables=" + tables);
			if (updateColumn != null) {
				args.add("--slotkeeper.targets[0].slots[0].resnapshot.update-columns=" + updateColumn);
			}
			return args;
		})) {
			// Only a re-snapshot of the changed tables needs a reading from before the
			// loss to narrow it.
			boolean sampled = "changed".equals(tables);
			TableCounters counters = pipeline.app.getBean(Fleet.class).get("orders").tableCounters();
			await().atMost(Duration.ofSeconds(30)).until(() -> !sampled || counters.before(Long.MAX_VALUE).isPresent());
			pipeline.write(1, 200);
			await().atMost(Duration.ofSeconds(30))
				.until(() -> pipeline.engine.deliveries().keySet().containsAll(ids(1, 200)));
			// The consumer confirmed a position later than a reading: the loss is
			// measured from that reading.
			await().atMost(Duration.ofSeconds(30))
				.until(() -> !sampled || counters
					.before(Lsn.parse(pipeline.server.queryForString(pipeline.database,
							"SELECT confirmed_flush_lsn FROM pg_replication_slots WHERE" + " slot_name = 'debezium'")))
					.isPresent());
			pipeline.engine.crash();
			pipeline.write(201, 400);
			SlotRecipes.lose(pipeline.server, pipeline.database, "debezium");
			long lost = System.nanoTime();
			pipeline.awaitHeal();
			pipeline.write(401, 500);
			Set<Long> written = pipeline.written();
			written.removeAll(ids(100_001, 100_000 + OLD_ROWS));
			await().atMost(Duration.ofSeconds(180))
				.until(() -> pipeline.engine.deliveries().keySet().containsAll(written));
			RealKafkaConnect worker = (RealKafkaConnect) pipeline.engine;
			// Done when no snapshot read came for 3 s.
			await().atMost(Duration.ofSeconds(180))
				.pollInterval(Duration.ofMillis(500))
				.until(() -> worker.lastSnapshotReadAt() != 0
						&& System.nanoTime() - worker.lastSnapshotReadAt() > 3_000_000_000L);
			Set<Long> missing = new java.util.HashSet<>(written);
			missing.removeAll(pipeline.engine.deliveries().keySet());
			String how = ("all".equals(tables) ? "every table" : "only the changed tables")
					+ ((updateColumn != null) ? ", orders narrowed to the lost window by updated_at" : "");
			return new Resnapshotted(how, worker.snapshotReads(), (worker.lastSnapshotReadAt() - lost) / 1_000_000,
					missing.size(), written.size(), pipeline.audit("slot.handover").get(0).toString());
		}
	}

	private record Resnapshotted(String how, long reread, long doneMillis, int missing, int written, String audit) {
	}

}
