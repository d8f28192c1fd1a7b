package io.slotkeeper.soak;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * What the instances said in their logs, across their lives: heals, handovers, takeovers,
 * restarts, WAL-limit raises, and per target the most heals in an hour and the deletes
 * reported for its gaps (a recount superseding the count it follows).
 *
 * @param heals heals done
 * @param lostHealed per target, the heals of a lost slot ({@code onLost})
 * @param handovers handovers completed after a wait for Kafka Connect
 * @param takeovers times an instance took a target over
 * @param gapDeletes the deletes reported for each target's gaps
 * @param mostHealsInAnHour the most heals of one target in any hour
 * @param restarts failed connectors restarted ({@code on-failed: restart})
 * @param restartsRefused failed connectors left FAILED, their restart budget spent
 * @param raises times the server's {@code max_slot_wal_keep_size} was raised
 * ({@code on-outage})
 * @param putBacks times it was put back, on the primary or on the former primary it was
 * made on
 * @param raisesRefused raises refused or failed (a value ALTER SYSTEM cannot override, a
 * role that may not); not a raise waiting for its former primary to answer as the standby
 * @param losses each heal's gap as it said it: journaled exactly or estimated, the keys
 * changed and the keys read again
 * @param journalsAdopted gap journals a new owner took over with their copies from the
 * one before (after a restart or a takeover)
 * @param gapDeliveries what came of each gap's signals to the Debezium extension, as
 * slot-keeper audited it ({@code slot.gap-delivery}): the target, the outcome and per
 * table what was delivered
 */
record InstanceLogs(int heals, Map<String, Integer> lostHealed, int handovers, int takeovers,
		Map<String, Long> gapDeletes, int mostHealsInAnHour, int restarts, int restartsRefused, int raises,
		int putBacks, int raisesRefused, List<Loss> losses, int journalsAdopted, List<String> gapDeliveries) {

	// A raise left on a former primary that is not yet back as the standby: said once,
	// put back when it is (the
	// verdict reads both nodes' value at the end).
	private static final String AWAITING_FORMER = "no configured replica is that server now";

	private static final Pattern TARGET = Pattern.compile(" target=(\\S+) ");

	private static final Pattern GAP_DELETES = Pattern
		.compile("audit action=(slot\\.heal|slot\\.gap-deletes" + "|slot\\.made-anew) .*deletesInGap:([^,}]*)");

	private static final Pattern COUNT = Pattern.compile("public\\.orders (\\d+)");

	private static final Pattern GAP = Pattern.compile("gap:(exact|exact but for some tables|incomplete \\([^)]*\\))"
			+ ", (\\S+) to (\\S+):(?: [^}]*?public\\.orders (?:(\\d+) inserted)?(?:, )?(?:(\\d+) updated)?(?:, )?"
			+ "(?:(\\d+) deleted)?)?");

	private static final Pattern DELIVERY = Pattern
		.compile("audit action=slot\\.gap-delivery .*outcome=(\\S+) .*gapDelivery:(\\{[^}]*\\})");

	private static final Pattern REREAD = Pattern
		.compile("public\\.orders=(\\d+) keys? inserted or updated in the gap");

	static InstanceLogs read(SoakWorld world) {
		int heals = 0;
		Map<String, Integer> lostHealed = new HashMap<>();
		int handovers = 0;
		int takeovers = 0;
		int restarts = 0;
		int refused = 0;
		int raises = 0;
		int putBacks = 0;
		int raisesRefused = 0;
		Map<String, List<Long>> counts = new HashMap<>();
		Map<String, List<Instant>> healed = new HashMap<>();
		List<Loss> losses = new ArrayList<>();
		int adopted = 0;
		List<String> deliveries = new ArrayList<>();
		for (Instance instance : world.instances) {
			List<String> lines;
			try {
				lines = Files.readAllLines(instance.log());
			}
			catch (IOException ex) {
				throw new UncheckedIOException(ex);
			}
			for (String line : lines) {
				Matcher target = TARGET.matcher(line);
				String name = target.find() ? target.group(1) : "";
				if (line.contains("audit action=slot.heal ") && line.contains("outcome=done")) {
					heals++;
					healed.computeIfAbsent(name, (key) -> new ArrayList<>())
						.add(Instant.parse(line.substring(0, line.indexOf(' '))));
					if (line.contains("onLost:") || line.contains("onMissing:")) {
						losses.add(Loss.of(name, line));
					}
					if (line.contains("onLost:")) {
						lostHealed.merge(name, 1, Integer::sum);
					}
				}
				boolean handover = line.contains("audit action=slot.handover ");
				handovers += handover ? 1 : 0;
				if (handover) {
					Loss.rereadAtHandover(losses, name, line);
				}
				adopted += line.contains("Adopted the gap journal of slot ") ? 1 : 0;
				Matcher delivered = DELIVERY.matcher(line);
				if (delivered.find()) {
					deliveries.add(name + " " + delivered.group(1) + " " + delivered.group(2));
				}
				boolean restart = line.contains("audit action=connector.restart ");
				restarts += (restart && line.contains("outcome=done")) ? 1 : 0;
				refused += (restart && line.contains("outcome=refused")) ? 1 : 0;
				takeovers += line.contains(" now") && line.contains("owns target '") ? 1 : 0;
				boolean keepSize = line.contains("audit action=server.keep-size ");
				boolean done = keepSize && line.contains("outcome=done");
				raises += (done && line.contains("detail=\"raised")) ? 1 : 0;
				putBacks += (done && line.contains("detail=\"put back")) ? 1 : 0;
				raisesRefused += (keepSize && !line.contains("outcome=done") && !line.contains(AWAITING_FORMER)) ? 1
						: 0;
				Matcher said = GAP_DELETES.matcher(line);
				if (said.find()) {
					Matcher count = COUNT.matcher(said.group(2));
					long deletes = count.find() ? Long.parseLong(count.group(1)) : 0;
					List<Long> ofTarget = counts.computeIfAbsent(name, (key) -> new ArrayList<>());
					if (said.group(1).equals("slot.gap-deletes") && !ofTarget.isEmpty()) {
						ofTarget.set(ofTarget.size() - 1, deletes);
					}
					else {
						ofTarget.add(deletes);
					}
				}
			}
		}
		Map<String, Long> reported = new HashMap<>();
		counts.forEach((name, list) -> reported.put(name, list.stream().mapToLong(Long::longValue).sum()));
		int most = healed.values().stream().mapToInt(InstanceLogs::mostInAnHour).max().orElse(0);
		return new InstanceLogs(heals, lostHealed, handovers, takeovers, reported, most, restarts, refused, raises,
				putBacks, raisesRefused, losses, adopted, deliveries);
	}

	// Across both instances' lives: the budget is the slot's, kept in its target's
	// database.
	private static int mostInAnHour(List<Instant> times) {
		List<Instant> sorted = times.stream().sorted().toList();
		int most = 0;
		for (int first = 0, last = 0; last < sorted.size(); last++) {
			while (sorted.get(first).plus(Duration.ofHours(1)).isBefore(sorted.get(last))) {
				first++;
			}
			most = Math.max(most, last - first + 1);
		}
		return most;
	}

	/**
	 * A heal's gap as its audit said it.
	 *
	 * @param target the target
	 * @param journaled how its journal read the gap ({@code exact}, {@code exact but for
	 * some tables}, {@code incomplete (…)}), {@code null} when none did (the deletes an
	 * estimate)
	 * @param from where the gap began, {@code null} when not journaled
	 * @param to where it ended (where the new slot starts), {@code null} when not
	 * journaled
	 * @param changed the keys of the orders table changed in the gap: inserted, updated,
	 * deleted; {@code null} when not journaled
	 * @param reread the keys the re-snapshot read again, -1 when it was not narrowed to
	 * keys
	 */
	record Loss(String target, String journaled, String from, String to, long[] changed, long reread) {

		static Loss of(String target, String line) {
			Matcher gap = GAP.matcher(line);
			Matcher reread = REREAD.matcher(line);
			long keys = reread.find() ? Long.parseLong(reread.group(1)) : -1;
			if (!gap.find()) {
				return new Loss(target, null, null, null, null, keys);
			}
			return new Loss(target, gap.group(1), gap.group(2), gap.group(3),
					new long[] { count(gap.group(4)), count(gap.group(5)), count(gap.group(6)) }, keys);
		}

		// A heal's re-snapshot is audited with its connector's handover, which ends after
		// the heal's audit: the re-read goes to the target's last loss.
		static void rereadAtHandover(List<Loss> losses, String target, String line) {
			Matcher reread = REREAD.matcher(line);
			if (!reread.find()) {
				return;
			}
			for (int i = losses.size() - 1; i >= 0; i--) {
				Loss loss = losses.get(i);
				if (loss.target().equals(target)) {
					losses.set(i, new Loss(target, loss.journaled(), loss.from(), loss.to(), loss.changed(),
							Long.parseLong(reread.group(1))));
					return;
				}
			}
		}

		private static long count(String group) {
			return (group != null) ? Long.parseLong(group) : 0;
		}

		String describe() {
			String read = (this.reread >= 0) ? "re-read " + this.reread + " keys" : "re-read not narrowed to keys";
			return (this.journaled == null) ? this.target + ": not journaled (deletes estimated), " + read
					: String.format("%s: gap %s, %d keys changed (%d inserted, %d updated, %d deleted), %s",
							this.target, this.journaled, this.changed[0] + this.changed[1] + this.changed[2],
							this.changed[0], this.changed[1], this.changed[2], read);
		}

	}

}
