package io.slotkeeper.soak;

import java.io.PrintStream;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import io.slotkeeper.sessions.Lsn;
import io.slotkeeper.testbed.PostgresServer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * What a soak came to, each invariant a count: rows missing from the topics, keys whose
 * last state differs from the database's, per target the deletes lost in its gaps against
 * those slot-keeper reported, two owners at once, a slot dropped under its consumer, the
 * heal budget, a user's stop undone, the connectors' end states, the instances'
 * resources; and the figures: per fault kind the time until every row written during the
 * fault was in its topic, duplicates, heals, handovers, takeovers, the longest wait of a
 * row.
 *
 * @param rows per target, what its consumer holds against its database
 * @param owned the targets' owners as the server's locks said them, against the
 * instances' own claims
 * @param userStopsBroken users' stops undone
 * @param connectorStates per target, its connector's state at the end
 * @param logs what the instances said
 * @param wholeAgainMillis per fault kind or overlap, the time until every pipeline was
 * whole again after each
 * @param wholeAgainBounds per fault kind or overlap and pipeline, the bound of its p99
 * @param wholeAgainByPipeline per fault kind or overlap and pipeline, the time until that
 * pipeline was whole again after each
 * @param wholeAgainJudged the same times as judged against their bounds: less what an
 * earlier fault's repair, under way when each began, was still allowed
 * ({@link ChainedRepairs})
 * @param lostSlotUsableAgainMillis per slot lost alone, the time until it was usable
 * again
 * @param overlapLostSlotUsableAgainMillis per overlap, the times its lost slots were
 * usable again after
 * @param played the faults played, in order, each its kind or overlap
 * @param notPlayed the faults not played as drawn, and why
 * @param lossesSeen per target, the losses of its slot the harness saw (sampled every 250
 * ms), against which slot-keeper's heals of a lost slot are counted
 * @param activeSlotsGone slots gone while their consumer streamed
 * @param mostHeld the most resident MiB and threads of an instance, sessions of both on
 * the server and of one, the gap journals' KiB and the KiB of WAL a copy retained
 * @param keepSizeAtEnd the server's {@code max_slot_wal_keep_size} once the pipelines
 * were whole
 * @param raisesRecorded raises still recorded in the targets' databases then, -1 when no
 * database holds their table
 * @param standby the switchovers and the standby at the end
 * @param journaledDeletes each exact gap's deletes as its journal counted them, against
 * the harness's own count
 */
record SoakVerdict(Map<String, Rows> rows, Owned owned, int userStopsBroken, Map<String, String> connectorStates,
		InstanceLogs logs, Map<String, List<Long>> wholeAgainMillis, Map<String, Map<String, Long>> wholeAgainBounds,
		Map<String, Map<String, List<Long>>> wholeAgainByPipeline,
		Map<String, Map<String, List<Long>>> wholeAgainJudged, List<Long> lostSlotUsableAgainMillis,
		Map<String, List<Long>> overlapLostSlotUsableAgainMillis, List<String> played, List<String> notPlayed,
		Map<String, Integer> lossesSeen, int activeSlotsGone, long[] mostHeld, String keepSizeAtEnd,
		long raisesRecorded, Standby standby, List<JournaledDeletes> journaledDeletes) {

	/**
	 * The server's {@code max_slot_wal_keep_size}: a slot without a consumer is lost
	 * within a minute.
	 */
	static final String KEEP_SIZE = "1MB";

	/**
	 * What {@code on-outage} may raise it to while a consumer is gone.
	 */
	static final String RAISED_KEEP_SIZE = "32MB";

	/**
	 * The heal budget the soak's instances are given
	 * ({@code slots[0].max-recreations-per-hour}).
	 */
	static final int HEALS_PER_HOUR = 30;

	/**
	 * The restart budget the soak's instances are given
	 * ({@code slots[0].max-restarts-per-hour}).
	 */
	static final int RESTARTS_PER_HOUR = 30;

	/**
	 * The bounds an instance stays within (its heap is {@code -Xmx256m}, as the chart's
	 * 512 MiB limit gives it room for), and both instances' sessions on the server: each
	 * holds the server's polling session, a heartbeat session per database found (3), and
	 * a pool of at most 4 per database that heals (2): 2 x (1 + 3 + 8).
	 */
	static final long MOST_RSS_MIB = 400;

	static final long MOST_THREADS = 100;

	static final long MOST_SESSIONS = 24;

	/**
	 * One instance's sessions on the primary: the polling session, a heartbeat session
	 * per database found (3), a pool of at most 4 per database that heals (2), a
	 * replication session per gap journal reading a copy (2), the WAL-limit guard's.
	 */
	static final long MOST_SESSIONS_OF_ONE = 1 + 3 + 8 + 2 + 1;

	/**
	 * The most the gap journals' tables may hold: a gap of minutes at the soak's 20
	 * writes a second is a few thousand keys, far from {@code gap-journal.max-keys}.
	 */
	static final long MOST_JOURNAL_KIB = 16 * 1024;

	/**
	 * The most WAL a copy of a slot may retain: the journal reads it at the head, so it
	 * retains no more than the raised limit allows any slot, and what is written between
	 * two checkpoints, which invalidate a slot past it (a WAL segment: 16 MiB).
	 */
	static final long MOST_COPY_RETAINED_KIB = (32 + 16) * 1024;

	/**
	 * The longest the writers of a database may go without a write: a primary's restart
	 * or a switchover, with the wait for its consumers to confirm at the stop. Longer,
	 * the harness itself is stuck and the times to whole again after it say nothing of
	 * slot-keeper.
	 */
	static final long MOST_WITHOUT_WRITE_MILLIS = 120_000;

	static SoakVerdict of(SoakWorld world, Map<SoakPipeline, Truth> truths, List<Soak.Played> played, Watchers watchers,
			Injector injector) {
		// The logs are read once the limit is back: a put-back seconds after the faults
		// ended is counted.
		String keepSize = keepSizeAfterTheOutages(world);
		InstanceLogs logs = InstanceLogs.read(world);
		Map<String, Rows> rows = new LinkedHashMap<>();
		Map<String, String> states = new LinkedHashMap<>();
		truths.forEach((pipeline, truth) -> {
			rows.put(pipeline.target, Rows.of(truth, pipeline.view, logs.gapDeletes().getOrDefault(pipeline.target, 0L),
					pipeline.writers().longestWithoutWriteMillis()));
			states.put(pipeline.target, pipeline.side.connector().state());
		});
		Map<String, List<Long>> whole = new TreeMap<>();
		Map<String, Map<String, Long>> bounds = new TreeMap<>();
		Map<String, Map<String, List<Long>>> byPipeline = new TreeMap<>();
		Map<String, Map<String, List<Long>>> judged = new TreeMap<>();
		Map<SoakPipeline, ChainedRepairs> repairs = new HashMap<>();
		List<Long> lost = new ArrayList<>();
		Map<String, List<Long>> overlapLost = new TreeMap<>();
		List<String> labels = new ArrayList<>();
		List<String> notPlayed = new ArrayList<>();
		for (Soak.Played fault : played) {
			String label = fault.fault().label();
			labels.add(label);
			truths.keySet()
				.forEach((pipeline) -> bounds.computeIfAbsent(label, (kind) -> new LinkedHashMap<>())
					.put(pipeline.target, fault.fault().wholeAgainWithinMillis(pipeline.side.statusLagMillis())));
			if (fault.outcome().notPlayed() != null) {
				notPlayed.add(fault.fault() + ": " + fault.outcome().notPlayed());
			}
			long after = 0;
			for (Map.Entry<SoakPipeline, Truth> truth : truths.entrySet()) {
				long each = truth.getValue()
					.wholeAgainAfter(fault.start(), fault.end(), truth.getKey().view.firstArrivals());
				byPipeline.computeIfAbsent(label, (kind) -> new LinkedHashMap<>())
					.computeIfAbsent(truth.getKey().target, (target) -> new ArrayList<>())
					.add(each);
				judged.computeIfAbsent(label, (kind) -> new LinkedHashMap<>())
					.computeIfAbsent(truth.getKey().target, (target) -> new ArrayList<>())
					.add(repairs.computeIfAbsent(truth.getKey(), (pipeline) -> new ChainedRepairs())
						.judge(fault.start(), fault.end(), each,
								fault.fault().wholeAgainWithinMillis(truth.getKey().side.statusLagMillis())));
				after = Math.max(after, each);
			}
			whole.computeIfAbsent(label, (kind) -> new ArrayList<>()).add(after);
			if (fault.outcome().lostFor() >= 0) {
				if (fault.fault().overlap() == null) {
					lost.add(fault.outcome().lostFor());
				}
				else {
					overlapLost.computeIfAbsent(label, (kind) -> new ArrayList<>()).add(fault.outcome().lostFor());
				}
			}
		}
		return new SoakVerdict(rows, watchers.owned(), injector.userStopsBroken(), states, logs, whole, bounds,
				byPipeline, judged, lost, overlapLost, labels, notPlayed, watchers.lossesSeen(),
				watchers.activeSlotsGone(), watchers.mostHeld(), keepSize, raisesRecorded(world),
				Standby.of(world, injector), JournaledDeletes.of(logs.losses(), byTarget(truths)));
	}

	private static Map<String, Truth> byTarget(Map<SoakPipeline, Truth> truths) {
		Map<String, Truth> byTarget = new HashMap<>();
		truths.forEach((pipeline, truth) -> byTarget.put(pipeline.target, truth));
		return byTarget;
	}

	// Put back once every slot of the server is read again and retains less than a share
	// of the value it goes back
	// to: once the writers stopped, within a few polls. On both nodes: a raise made
	// before a switchover is put back on
	// the former primary, now the standby, once it answers as the configured replica.
	private static String keepSizeAfterTheOutages(SoakWorld world) {
		try {
			await().atMost(Duration.ofSeconds(120))
				.pollInterval(Duration.ofSeconds(1))
				.until(() -> KEEP_SIZE.equals(keepSizes(world)));
		}
		catch (org.awaitility.core.ConditionTimeoutException ex) {
			// the value is the verdict's
		}
		return keepSizes(world);
	}

	private static String keepSizes(SoakWorld world) {
		String primary = world.server.queryForString("postgres", "SHOW max_slot_wal_keep_size");
		String standby = world.server.currentStandby().queryForString("postgres", "SHOW max_slot_wal_keep_size");
		return primary.equals(standby) ? primary : primary + " (the standby " + standby + ")";
	}

	// -1 when no database holds the table: a run that raised the limit and never kept a
	// record of it proves nothing by a count of 0.
	private static long raisesRecorded(SoakWorld world) {
		long recorded = -1;
		for (SoakPipeline pipeline : world.pipelines) {
			if ("t".equals(world.server.queryForString(pipeline.database,
					"SELECT to_regclass('slotkeeper.keep_size_raises') IS NOT NULL"))) {
				recorded = Math.max(recorded, 0) + Long.parseLong(world.server.queryForString(pipeline.database,
						"SELECT count(*) FROM slotkeeper.keep_size_raises"));
			}
		}
		return recorded;
	}

	int missing() {
		return this.rows.values().stream().mapToInt(Rows::missing).sum();
	}

	int stale() {
		return this.rows.values().stream().mapToInt(Rows::stale).sum();
	}

	/**
	 * Every invariant, each failing with its name: no row missing, no stale key, the
	 * deletes lost in each target's gaps within what slot-keeper reported, each exact
	 * gap's deletes those the harness placed in it, no writer stuck, one owner at most,
	 * no slot dropped under its consumer, a lost slot usable again within a poll + 5 s,
	 * the heal budget kept, every WAL-limit raise put back, no user's stop undone, the
	 * connectors running, every fault's rows arrived and each kind's p99 time to whole
	 * again within its bound, every switchover to a ready standby and the standby
	 * streaming at the end, each instance and their sessions within the bounds.
	 */
	void assertInvariants() {
		assertThat(this.notPlayed).as("faults drawn but not played as drawn").isEmpty();
		assertThat(missing()).as("rows missing from the topics").isZero();
		assertThat(stale()).as("keys whose last state is not the database's").isZero();
		this.rows.forEach((target, counted) -> assertThat(counted.lostDeletes())
			.as("deletes lost in the gaps of %s, against the most slot-keeper reported", target)
			.isLessThanOrEqualTo(counted.reportedGapDeletes()));
		assertThat(this.journaledDeletes).as("exact gaps whose journal's deletes differ from the harness's")
			.allMatch(JournaledDeletes::agree);
		this.rows.forEach((target, counted) -> assertThat(counted.longestWithoutWriteMillis())
			.as("the longest the writers of %s went without a write", target)
			.isLessThanOrEqualTo(MOST_WITHOUT_WRITE_MILLIS));
		assertThat(this.owned.claimsOfAnothersTarget())
			.as("an instance claiming a target whose owner lock another instance's session held, 3 samples running")
			.isEmpty();
		assertThat(this.activeSlotsGone).as("slots dropped under a streaming consumer").isZero();
		assertThat(this.logs.lostHealed())
			.as("per target, the heals of a lost slot slot-keeper audited, against the" + " losses the harness saw")
			.isEqualTo(this.lossesSeen);
		assertThat(this.lostSlotUsableAgainMillis).as("a lost slot usable again within a poll (1 s) + 5 s")
			.allMatch((millis) -> millis <= 6_000);
		assertThat(this.logs.mostHealsInAnHour()).as("heals of a slot in an hour").isLessThanOrEqualTo(HEALS_PER_HOUR);
		assertThat(this.logs.restartsRefused()).as("failed connectors left FAILED, the restart budget spent").isZero();
		assertThat(this.userStopsBroken).as("a user's stop undone").isZero();
		assertThat(this.keepSizeAtEnd).as("max_slot_wal_keep_size once the outages were over").isEqualTo(KEEP_SIZE);
		assertThat(this.raisesRecorded).as("WAL-limit raises still recorded at the end (-1: no record kept)")
			.isEqualTo((this.logs.raises() > 0) ? 0 : this.raisesRecorded);
		assertThat(this.raisesRecorded).as("WAL-limit raises still recorded at the end").isLessThanOrEqualTo(0);
		assertThat(this.logs.raisesRefused()).as("WAL-limit raises refused or failed").isZero();
		assertThat(this.connectorStates).as("the connectors at the end")
			.allSatisfy((target, state) -> assertThat(state).isEqualTo("RUNNING"));
		assertThat(this.wholeAgainMillis.values()).as("every fault's rows arrived")
			.allSatisfy((times) -> assertThat(times).allMatch((millis) -> millis < Long.MAX_VALUE));
		this.wholeAgainJudged.forEach((kind, byTarget) -> byTarget
			.forEach((target, times) -> assertThat(percentile(times.stream().sorted().toList(), 99))
				.as("p99 of the time to whole again after %s of %s", kind, target)
				.isLessThanOrEqualTo(this.wholeAgainBounds.get(kind).get(target))));
		assertThat(this.standby.unready()).as("switchovers to a standby without both slots synchronized").isZero();
		assertThat(this.standby.streaming()).as("the standby streaming through its valid slot at the end").isTrue();
		assertThat(this.mostHeld[0]).as("resident MiB of an instance").isLessThan(MOST_RSS_MIB);
		assertThat(this.mostHeld[1]).as("threads of an instance").isLessThan(MOST_THREADS);
		assertThat(this.mostHeld[2]).as("slot-keeper's sessions on the server").isLessThanOrEqualTo(MOST_SESSIONS);
		assertThat(this.mostHeld[3]).as("one instance's sessions on the server")
			.isLessThanOrEqualTo(MOST_SESSIONS_OF_ONE);
		assertThat(this.mostHeld[4]).as("KiB in the gap journals' tables").isLessThanOrEqualTo(MOST_JOURNAL_KIB);
		assertThat(this.mostHeld[5]).as("KiB of WAL a copy of a slot retained")
			.isLessThanOrEqualTo(MOST_COPY_RETAINED_KIB);
	}

	void print(PrintStream out) {
		this.rows
			.forEach((target, counted) -> out.printf("soak: %s: rows missing %d, keys stale %d, duplicates %d of %d"
					+ " events, longest wait of a row %d ms, longest without a write %d ms; deletes lost in gaps %d (rows"
					+ " still held %d, deleted before they were ever seen %d), slot-keeper reported at most %d (over by %d)%n",
					target, counted.missing(), counted.stale(), counted.duplicates(), counted.events(),
					counted.longestWaitMillis(), counted.longestWithoutWriteMillis(), counted.lostDeletes(),
					counted.ghosts(), counted.unseenDeleted(), counted.reportedGapDeletes(),
					counted.reportedGapDeletes() - counted.lostDeletes()));
		this.rows.forEach((target, counted) -> counted.ghostSamples()
			.forEach((held) -> out.printf("soak: %s: a deleted row still held: %s%n", target, held)));
		this.logs.losses().forEach((loss) -> out.printf("soak: loss of %s%n", loss.describe()));
		this.journaledDeletes.forEach((gap) -> out.printf("soak: deletes in the exact gap of %s%n", gap.describe()));
		out.printf("soak: gap journals adopted by a new owner %d%n", this.logs.journalsAdopted());
		this.logs.gapDeliveries()
			.forEach((delivery) -> out.printf("soak: the gap's signals to the Debezium extension of %s%n", delivery));
		out.printf(
				"soak: most instances claiming a target at once %d, user stops undone %d, connectors at the end %s, failed connectors"
						+ " restarted by slot-keeper %d (refused %d, budget %d an hour)%n",
				this.owned.mostClaimants(), this.userStopsBroken, this.connectorStates, this.logs.restarts(),
				this.logs.restartsRefused(), RESTARTS_PER_HOUR);
		out.printf(
				"soak: WAL-limit raises to %s %d (refused or failed %d), put back %d; max_slot_wal_keep_size at the"
						+ " end %s, raises still recorded %d%n",
				RAISED_KEEP_SIZE, this.logs.raises(), this.logs.raisesRefused(), this.logs.putBacks(),
				this.keepSizeAtEnd, this.raisesRecorded);
		out.printf(
				"soak: heals %d, handovers %d, takeovers %d (the owner locks changed hands %d times, a target"
						+ " without an owner for %d ms at most), lost slots usable again after %s ms, in overlaps %s%n",
				this.logs.heals(), this.logs.handovers(), this.logs.takeovers(), this.owned.changes(),
				this.owned.longestWithoutMillis(), this.lostSlotUsableAgainMillis,
				this.overlapLostSlotUsableAgainMillis);
		out.printf("soak: losses the harness saw %s, heals of a lost slot slot-keeper audited %s%n", this.lossesSeen,
				this.logs.lostHealed());
		out.printf("soak: played %s%n", this.played);
		this.notPlayed.forEach((fault) -> out.printf("soak: not played as drawn: %s%n", fault));
		this.owned.claimsOfAnothersTarget().forEach((claim) -> out.printf("soak: %s%n", claim));
		out.printf(
				"soak: active slots gone %d, most heals of a slot in an hour %d (budget %d), most held by an"
						+ " instance: %d MiB resident, %d threads; slot-keeper's sessions on the server at most %d (one"
						+ " instance's %d); the gap journals' tables at most %d KiB, a copy of a slot retained at most"
						+ " %d KiB of WAL%n",
				this.activeSlotsGone, this.logs.mostHealsInAnHour(), HEALS_PER_HOUR, this.mostHeld[0], this.mostHeld[1],
				this.mostHeld[2], this.mostHeld[3], this.mostHeld[4], this.mostHeld[5]);
		out.printf("soak: switchovers %d (to a standby not ready %d), the standby streaming at the end %s%n",
				this.standby.switchovers(), this.standby.unready(), this.standby.streaming() ? "yes" : "no");
		this.wholeAgainMillis.forEach((kind, times) -> {
			List<Long> sorted = times.stream().sorted().toList();
			StringBuilder each = new StringBuilder();
			this.wholeAgainByPipeline.getOrDefault(kind, Map.of()).forEach((target, pipeline) -> {
				List<Long> ordered = pipeline.stream().sorted().toList();
				long judgedP99 = percentile(this.wholeAgainJudged.get(kind).get(target).stream().sorted().toList(), 99);
				each.append(String.format("; %s p50 %d, p99 %d (bound %d%s), max %d", target, percentile(ordered, 50),
						percentile(ordered, 99), this.wholeAgainBounds.get(kind).get(target),
						(judgedP99 != percentile(ordered, 99)) ? ", judged " + judgedP99 + " as chained" : "",
						ordered.get(ordered.size() - 1)));
			});
			out.printf("soak: %-29s x%-3d whole again after p50 %d ms, p99 %d ms, max %d ms%s%n", kind, sorted.size(),
					percentile(sorted, 50), percentile(sorted, 99), sorted.get(sorted.size() - 1), each);
		});
	}

	private static long percentile(List<Long> sorted, int percent) {
		int index = (int) Math.ceil(percent / 100.0 * sorted.size()) - 1;
		return sorted.get(Math.max(0, index));
	}

	/**
	 * The standby's part in a soak.
	 *
	 * @param switchovers how many times the primary changed
	 * @param unready switchovers to a standby that did not hold both slots synchronized
	 * within a minute
	 * @param streaming whether the standby streams at the end through its physical slot,
	 * not lost
	 */
	record Standby(int switchovers, int unready, boolean streaming) {

		static Standby of(SoakWorld world, Injector injector) {
			boolean streaming;
			try {
				await().atMost(Duration.ofSeconds(30))
					.pollInterval(Duration.ofSeconds(1))
					.until(() -> "t".equals(world.server.queryForString("postgres",
							"SELECT active AND wal_status <>" + " 'lost' FROM pg_replication_slots WHERE slot_name = '"
									+ io.slotkeeper.testbed.ReplicatedServer.STANDBY_SLOT + "'")));
				streaming = true;
			}
			catch (org.awaitility.core.ConditionTimeoutException ex) {
				streaming = false;
			}
			return new Standby(world.server.switchovers(), injector.switchedUnready(), streaming);
		}

	}

	/**
	 * One pipeline's consumer against its database.
	 *
	 * @param missing rows in the database that never arrived
	 * @param stale keys whose last state downstream is not the table's: an existing row's
	 * last event not its last version, or a deleted row the consumer still holds (the
	 * strict definition: a gap's deletes are delivered by slot-keeper's Debezium
	 * extension)
	 * @param ghosts deleted rows the consumer still holds
	 * @param unseenDeleted deleted rows it never saw (made and deleted while a slot was
	 * lost)
	 * @param reportedGapDeletes what slot-keeper reported for the target's gaps
	 * @param duplicates events delivered more than once
	 * @param events events delivered
	 * @param longestWaitMillis the longest time from a row's making to its first arrival
	 * @param longestWithoutWriteMillis the longest time its writers went without a write
	 * that succeeded
	 * @param ghostSamples the first deleted rows the consumer still holds, each with what
	 * it last got of the row
	 */
	record Rows(int missing, int stale, int ghosts, int unseenDeleted, long reportedGapDeletes, long duplicates,
			long events, long longestWaitMillis, long longestWithoutWriteMillis, List<String> ghostSamples) {

		static Rows of(Truth truth, KeyedTopic view, long reported, long longestWithoutWrite) {
			Map<Long, Integer> last = view.last();
			Map<Long, Long> arrivals = view.firstArrivals();
			int missing = 0;
			int stale = 0;
			long longest = 0;
			for (Map.Entry<Long, long[]> row : truth.existing().entrySet()) {
				Integer seen = last.get(row.getKey());
				if (!arrivals.containsKey(row.getKey())) {
					missing++;
				}
				else {
					longest = Math.max(longest, arrivals.get(row.getKey()) - row.getValue()[1]);
					if (seen == null || seen != row.getValue()[0]) {
						stale++;
					}
				}
			}
			int ghosts = 0;
			int unseen = 0;
			List<Map.Entry<Long, long[]>> held = new ArrayList<>();
			for (Map.Entry<Long, long[]> deleted : truth.deleted().entrySet()) {
				Integer seen = last.get(deleted.getKey());
				if (seen == null) {
					unseen++;
				}
				else if (seen != KeyedTopic.DELETED) {
					ghosts++;
					stale++;
					held.add(deleted);
				}
			}
			// The first deleted rows still held, in the order of their deletes, with what
			// the
			// consumer last got of each: what a run that failed on them is read from.
			List<String> samples = held.stream()
				.sorted(Comparator.comparingLong((Map.Entry<Long, long[]> each) -> each.getValue()[1]))
				.limit(12)
				.map((each) -> String.format("id %d made %s, deleted %s (commit at %s), last event %s", each.getKey(),
						Instant.ofEpochMilli(each.getValue()[0]), Instant.ofEpochMilli(each.getValue()[1]),
						Lsn.format(each.getValue()[2]), view.describe(each.getKey())))
				.toList();
			return new Rows(missing, stale, ghosts, unseen, reported, view.duplicates(), view.events(), longest,
					longestWithoutWrite, samples);
		}

		/**
		 * The deletes no consumer got: of rows it still holds, and of rows made and
		 * deleted while a slot was lost.
		 */
		long lostDeletes() {
			return this.ghosts + this.unseenDeleted;
		}

	}

	/**
	 * The database at the end: each row's version and when it was made, each deleted
	 * row's making and deleting and the WAL positions its delete committed between (after
	 * its own record, before the position the writers read after its commit,
	 * {@link Long#MAX_VALUE} when they could not).
	 */
	record Truth(Map<Long, long[]> existing, Map<Long, long[]> deleted) {

		static Truth read(PostgresServer server, SoakPipeline pipeline) {
			try (Connection connection = server.connect(pipeline.database);
					Statement statement = connection.createStatement()) {
				Map<Long, long[]> existing = new HashMap<>();
				try (ResultSet rows = statement.executeQuery(
						"SELECT id, version, (extract(epoch FROM created_at)" + " * 1000)::bigint FROM orders")) {
					while (rows.next()) {
						existing.put(rows.getLong(1), new long[] { rows.getInt(2), rows.getLong(3) });
					}
				}
				Map<Long, long[]> deleted = new HashMap<>();
				Map<Long, Long> committedBefore = pipeline.writers().committedBefore();
				try (ResultSet rows = statement.executeQuery("SELECT id, (extract(epoch FROM created_at) * 1000)"
						+ "::bigint, (extract(epoch FROM deleted_at) * 1000)::bigint, (deleted_lsn - '0/0')::bigint"
						+ " FROM deleted_orders")) {
					while (rows.next()) {
						deleted.put(rows.getLong(1), new long[] { rows.getLong(2), rows.getLong(3), rows.getLong(4),
								committedBefore.getOrDefault(rows.getLong(1), Long.MAX_VALUE) });
					}
				}
				return new Truth(existing, deleted);
			}
			catch (SQLException ex) {
				throw new IllegalStateException(ex);
			}
		}

		// Whole: every row there is arrived, at its last version.
		boolean wholeIn(KeyedTopic view) {
			Map<Long, Integer> last = view.last();
			return this.existing.entrySet().stream().allMatch((row) -> {
				Integer seen = last.get(row.getKey());
				return seen != null && seen == row.getValue()[0];
			});
		}

		// When every row made during the fault, and the first one made after it, had
		// arrived (a fault in which no
		// write succeeded, a primary's restart, is over for the consumer only when the
		// next write arrives);
		// Long.MAX_VALUE when one never did.
		long wholeAgainAfter(long start, long end, Map<Long, Long> arrivals) {
			long whole = end;
			long firstAfter = Long.MAX_VALUE;
			Long nextRow = null;
			for (Map.Entry<Long, long[]> row : this.existing.entrySet()) {
				long made = row.getValue()[1];
				if (made >= start && made <= end) {
					Long arrived = arrivals.get(row.getKey());
					if (arrived == null) {
						return Long.MAX_VALUE;
					}
					whole = Math.max(whole, arrived);
				}
				else if (made > end && made < firstAfter) {
					firstAfter = made;
					nextRow = row.getKey();
				}
			}
			if (nextRow != null) {
				Long arrived = arrivals.get(nextRow);
				if (arrived == null) {
					return Long.MAX_VALUE;
				}
				whole = Math.max(whole, arrived);
			}
			return whole - end;
		}

	}

}
