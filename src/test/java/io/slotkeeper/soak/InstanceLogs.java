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
 */
record InstanceLogs(int heals, int handovers, int takeovers, Map<String, Long> gapDeletes, int mostHealsInAnHour,
		int restarts, int restartsRefused, int raises, int putBacks, int raisesRefused) {

	// A raise left on a former primary that is not yet back as the standby: said once,
	// put back when it is (the
	// verdict reads both nodes' value at the end).
	private static final String AWAITING_FORMER = "no configured replica is that server now";

	private static final Pattern TARGET = Pattern.compile(" target=(\\S+) ");

	private static final Pattern GAP_DELETES = Pattern
		.compile("audit action=(slot\\.heal|slot\\.gap-deletes" + "|slot\\.made-anew) .*deletesInGap:([^,}]*)");

	private static final Pattern COUNT = Pattern.compile("public\\.orders (\\d+)");

	static InstanceLogs read(SoakWorld world) {
		int heals = 0;
		int handovers = 0;
		int takeovers = 0;
		int restarts = 0;
		int refused = 0;
		int raises = 0;
		int putBacks = 0;
		int raisesRefused = 0;
		Map<String, List<Long>> counts = new HashMap<>();
		Map<String, List<Instant>> healed = new HashMap<>();
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
				}
				handovers += line.contains("audit action=slot.handover ") ? 1 : 0;
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
		return new InstanceLogs(heals, handovers, takeovers, reported, most, restarts, refused, raises, putBacks,
				raisesRefused);
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

}
