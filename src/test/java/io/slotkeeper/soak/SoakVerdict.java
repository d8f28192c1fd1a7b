package io.slotkeeper.soak;

import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * What a soak came to, each invariant a count: rows missing from the topic, keys whose last state differs from the
 * database's, deleted rows the consumer still holds against the deletes slot-keeper reported for its gaps, two
 * owners at once, a user's stop undone, the connector's end state; and the figures: per fault kind the time until
 * every row written during the fault was in the topic, duplicates, heals, handovers, takeovers, the longest wait of a
 * row.
 */
record SoakVerdict(int missing, int stale, int ghosts, int unseenDeleted, long reportedGapDeletes, long duplicates,
		long events, int mostOwners, int userStopsBroken, String connectorState, int heals, int handovers,
		int takeovers, long longestWaitMillis, Map<FaultSchedule.Kind, List<Long>> wholeAgainMillis,
		List<Long> lostSlotUsableAgainMillis, int restarts, int activeSlotsGone, int mostHealsInAnHour, long[] mostHeld) {

	/**
	 * The heal budget the soak's instances are given ({@code slots[0].max-recreations-per-hour}).
	 */
	static final int HEALS_PER_HOUR = 30;

	/**
	 * The bounds an instance stays within (its heap is {@code -Xmx256m}, as the chart's 512 MiB limit gives it room
	 * for), and both instances' sessions on the server: each holds a heartbeat session and a pool of at most 4.
	 */
	static final long MOST_RSS_MIB = 400;

	static final long MOST_THREADS = 100;

	static final long MOST_SESSIONS = 10;

	private static final Pattern GAP_DELETES = Pattern.compile("audit action=(slot\\.heal|slot\\.gap-deletes"
			+ "|slot\\.made-anew) .*deletesInGap:([^,}]*)");

	private static final Pattern COUNT = Pattern.compile("public\\.orders (\\d+)");

	static SoakVerdict of(SoakWorld world, Truth truth, List<Soak.Played> played, Watchers watchers,
			Injector injector) {
		Map<Long, Integer> last = world.view.last();
		Map<Long, Long> arrivals = world.view.firstArrivals();
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
		int unseenDeleted = 0;
		for (Long id : truth.deleted().keySet()) {
			Integer seen = last.get(id);
			if (seen == null) {
				unseenDeleted++;
			}
			else if (seen != KeyedTopic.DELETED) {
				ghosts++;
			}
		}
		Logs logs = Logs.read(world);
		Map<FaultSchedule.Kind, List<Long>> whole = new TreeMap<>();
		List<Long> lost = new ArrayList<>();
		for (Soak.Played fault : played) {
			whole.computeIfAbsent(fault.fault().kind(), (kind) -> new ArrayList<>())
				.add(truth.wholeAgainAfter(fault.start(), fault.end(), arrivals));
			if (fault.lostFor() >= 0) {
				lost.add(fault.lostFor());
			}
		}
		return new SoakVerdict(missing, stale, ghosts, unseenDeleted, logs.gapDeletes(), world.view.duplicates(),
				world.view.events(), watchers.mostOwners(), injector.userStopsBroken(), world.connect.state(),
				logs.heals(), logs.handovers(), logs.takeovers(), longest, whole, lost, watchers.restarts(),
				watchers.activeSlotsGone(), logs.mostHealsInAnHour(), watchers.mostHeld());
	}

	/**
	 * The deletes no consumer got: of rows it still holds, and of rows made and deleted while a slot was lost.
	 */
	int lostDeletes() {
		return this.ghosts + this.unseenDeleted;
	}

	/**
	 * Every invariant, each failing with its name: no row missing, no stale key, the deletes lost in gaps within what
	 * slot-keeper reported, one owner at most, no slot dropped under its consumer, a lost slot usable again within a
	 * poll + 5 s, the heal budget kept, no user's stop undone, the connector running, every fault's rows arrived, each
	 * instance and their sessions within the bounds.
	 */
	void assertInvariants() {
		assertThat(this.missing).as("rows missing from the topic").isZero();
		assertThat(this.stale).as("keys whose last state is not the database's").isZero();
		assertThat(lostDeletes()).as("deletes lost in gaps, against the most slot-keeper reported")
			.isLessThanOrEqualTo((int) this.reportedGapDeletes);
		assertThat(this.mostOwners).as("owners of the target at once").isLessThanOrEqualTo(1);
		assertThat(this.activeSlotsGone).as("slots dropped under a streaming consumer").isZero();
		assertThat(this.lostSlotUsableAgainMillis).as("a lost slot usable again within a poll (1 s) + 5 s")
			.allMatch((millis) -> millis <= 6_000);
		assertThat(this.mostHealsInAnHour).as("heals in an hour").isLessThanOrEqualTo(HEALS_PER_HOUR);
		assertThat(this.userStopsBroken).as("a user's stop undone").isZero();
		assertThat(this.connectorState).as("the connector at the end").isEqualTo("RUNNING");
		assertThat(this.wholeAgainMillis.values()).as("every fault's rows arrived")
			.allSatisfy((times) -> assertThat(times).allMatch((millis) -> millis < Long.MAX_VALUE));
		assertThat(this.mostHeld[0]).as("resident MiB of an instance").isLessThan(MOST_RSS_MIB);
		assertThat(this.mostHeld[1]).as("threads of an instance").isLessThan(MOST_THREADS);
		assertThat(this.mostHeld[2]).as("slot-keeper's sessions on the server").isLessThanOrEqualTo(MOST_SESSIONS);
	}

	void print(PrintStream out) {
		out.printf("soak: rows missing %d, keys stale %d, duplicates %d of %d events%n", this.missing, this.stale,
				this.duplicates, this.events);
		out.printf("soak: deletes lost in gaps %d (rows still held %d, rows deleted before they were ever seen %d);"
				+ " slot-keeper reported at most %d (over by %d)%n", lostDeletes(), this.ghosts, this.unseenDeleted,
				this.reportedGapDeletes, this.reportedGapDeletes - lostDeletes());
		out.printf("soak: most owners at once %d, user stops undone %d, connector at the end %s, restarts by the"
				+ " restart policy %d%n", this.mostOwners, this.userStopsBroken, this.connectorState, this.restarts);
		out.printf("soak: heals %d, handovers %d, takeovers %d, longest wait of a row %d ms, lost slots usable again"
				+ " after %s ms%n", this.heals, this.handovers, this.takeovers, this.longestWaitMillis,
				this.lostSlotUsableAgainMillis);
		out.printf("soak: active slots gone %d, most heals in an hour %d (budget %d), most held by an instance: %d MiB"
				+ " resident, %d threads; slot-keeper's sessions on the server at most %d%n", this.activeSlotsGone,
				this.mostHealsInAnHour, HEALS_PER_HOUR, this.mostHeld[0], this.mostHeld[1], this.mostHeld[2]);
		this.wholeAgainMillis.forEach((kind, times) -> {
			List<Long> sorted = times.stream().sorted().toList();
			out.printf("soak: %-16s x%-3d whole again after p50 %d ms, p99 %d ms, max %d ms%n", kind, sorted.size(),
					percentile(sorted, 50), percentile(sorted, 99), sorted.get(sorted.size() - 1));
		});
	}

	private static long percentile(List<Long> sorted, int percent) {
		int index = (int) Math.ceil(percent / 100.0 * sorted.size()) - 1;
		return sorted.get(Math.max(0, index));
	}

	/**
	 * The database at the end: each row's version and when it was made, each deleted row's making and deleting.
	 */
	record Truth(Map<Long, long[]> existing, Map<Long, long[]> deleted) {

		static Truth read(SoakWorld world) {
			try (Connection connection = world.server.connect(world.database);
					Statement statement = connection.createStatement()) {
				Map<Long, long[]> existing = new HashMap<>();
				try (ResultSet rows = statement.executeQuery("SELECT id, version, (extract(epoch FROM created_at)"
						+ " * 1000)::bigint FROM orders")) {
					while (rows.next()) {
						existing.put(rows.getLong(1), new long[] { rows.getInt(2), rows.getLong(3) });
					}
				}
				Map<Long, long[]> deleted = new HashMap<>();
				try (ResultSet rows = statement.executeQuery("SELECT id, (extract(epoch FROM created_at) * 1000)"
						+ "::bigint, (extract(epoch FROM deleted_at) * 1000)::bigint FROM deleted_orders")) {
					while (rows.next()) {
						deleted.put(rows.getLong(1), new long[] { rows.getLong(2), rows.getLong(3) });
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

		// When every row made during the fault, and the first one made after it, had arrived (a fault in which no
		// write succeeded, a primary's restart, is over for the consumer only when the next write arrives);
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

	/**
	 * What the instances said in their logs, across their lives.
	 */
	record Logs(int heals, int handovers, int takeovers, long gapDeletes, int mostHealsInAnHour) {

		static Logs read(SoakWorld world) {
			int heals = 0;
			int handovers = 0;
			int takeovers = 0;
			List<Long> counts = new ArrayList<>();
			List<java.time.Instant> healed = new ArrayList<>();
			for (Instance instance : world.instances) {
				List<String> lines;
				try {
					lines = Files.readAllLines(instance.log());
				}
				catch (IOException ex) {
					throw new UncheckedIOException(ex);
				}
				for (String line : lines) {
					if (line.contains("audit action=slot.heal ") && line.contains("outcome=done")) {
						heals++;
						healed.add(java.time.Instant.parse(line.substring(0, line.indexOf(' '))));
					}
					handovers += line.contains("audit action=slot.handover ") ? 1 : 0;
					takeovers += line.contains("owns target 'orders' now") ? 1 : 0;
					Matcher said = GAP_DELETES.matcher(line);
					if (said.find()) {
						Matcher count = COUNT.matcher(said.group(2));
						long deletes = count.find() ? Long.parseLong(count.group(1)) : 0;
						// A recount supersedes the count of the heal it follows.
						if (said.group(1).equals("slot.gap-deletes") && !counts.isEmpty()) {
							counts.set(counts.size() - 1, deletes);
						}
						else {
							counts.add(deletes);
						}
					}
				}
			}
			return new Logs(heals, handovers, takeovers, counts.stream().mapToLong(Long::longValue).sum(),
					mostInAnHour(healed));
		}

		// Across both instances' lives: the budget is the target's, kept in its database.
		private static int mostInAnHour(List<java.time.Instant> times) {
			List<java.time.Instant> sorted = times.stream().sorted().toList();
			int most = 0;
			for (int first = 0, last = 0; last < sorted.size(); last++) {
				while (sorted.get(first).plus(java.time.Duration.ofHours(1)).isBefore(sorted.get(last))) {
					first++;
				}
				most = Math.max(most, last - first + 1);
			}
			return most;
		}

	}

}
