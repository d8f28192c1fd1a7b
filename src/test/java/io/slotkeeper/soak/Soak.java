package io.slotkeeper.soak;

import java.io.PrintStream;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import io.slotkeeper.soak.FaultSchedule.Fault;

import static org.awaitility.Awaitility.await;

/**
 * A soak of the whole pipeline: faults drawn from a seed, one after another with a gap of
 * their own, for a given time; then the writers stop, the pipeline is given time to be
 * whole, and the verdict ({@link SoakVerdict}) is taken from the database, the topic and
 * slot-keeper's own words.
 */
final class Soak {

	private Soak() {
	}

	/**
	 * Runs a soak and prints its figures.
	 * @param seed the seed of the fault schedule (printed first, to play a failed run
	 * again)
	 * @param length how long faults are injected
	 * @param kinds the kinds drawn from
	 * @param minGap the shortest gap between faults, in seconds
	 * @param maxGap the longest gap
	 * @param out where the figures go
	 * @return the verdict
	 */
	static SoakVerdict run(long seed, Duration length, List<FaultSchedule.Kind> kinds, int minGap, int maxGap,
			PrintStream out) {
		out.printf("soak: seed %d, %d s of faults (%s), a fault every %d-%d s%n", seed, length.toSeconds(), kinds,
				minGap, maxGap);
		FaultSchedule schedule = new FaultSchedule(seed, kinds, minGap, maxGap);
		try (SoakWorld world = new SoakWorld(seed, 20); Watchers watchers = new Watchers(world)) {
			Injector injector = new Injector(world);
			List<Played> played = new ArrayList<>();
			long deadline = System.nanoTime() + length.toNanos();
			while (true) {
				Fault fault = schedule.next();
				long wait = Math.min(fault.gapSeconds() * 1000L,
						Math.max(0, (deadline - System.nanoTime()) / 1_000_000));
				pause(wait);
				if (System.nanoTime() >= deadline) {
					break;
				}
				long start = System.currentTimeMillis();
				long elapsed = length.toSeconds() - Math.max(0, (deadline - System.nanoTime()) / 1_000_000_000);
				out.printf("soak: %s, at %d:%02d%n", fault, elapsed / 60, elapsed % 60);
				long lostFor = injector.play(fault);
				played.add(new Played(fault, start, System.currentTimeMillis(), lostFor));
			}
			world.stopWriting();
			out.printf("soak: faults over; %d writes (%d failed and retried); awaiting the pipelines%n",
					world.pipelines.stream().mapToLong((pipeline) -> pipeline.writers().writes()).sum(),
					world.pipelines.stream().mapToLong((pipeline) -> pipeline.writers().failures()).sum());
			Map<SoakPipeline, SoakVerdict.Truth> truths = new LinkedHashMap<>();
			world.pipelines.forEach((pipeline) -> truths.put(pipeline, SoakVerdict.Truth.read(world.server, pipeline)));
			try {
				await().atMost(Duration.ofSeconds(240))
					.pollInterval(Duration.ofSeconds(1))
					.until(() -> truths.entrySet()
						.stream()
						.allMatch((truth) -> truth.getValue().wholeIn(truth.getKey().view)));
			}
			catch (org.awaitility.core.ConditionTimeoutException ex) {
				out.println("soak: not whole 240 s after the faults ended");
			}
			SoakVerdict verdict = SoakVerdict.of(world, truths, played, watchers, injector);
			verdict.print(out);
			return verdict;
		}
	}

	/**
	 * A fault as it was played.
	 *
	 * @param fault the fault
	 * @param start when it began, epoch milliseconds
	 * @param end when it was over (the pod back, the network flowing)
	 * @param lostFor for a lost slot, the milliseconds until it was usable again
	 */
	record Played(Fault fault, long start, long end, long lostFor) {
	}

	private static void pause(long millis) {
		try {
			Thread.sleep(millis);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
		}
	}

}
