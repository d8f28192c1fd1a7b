package io.slotkeeper.soak;

import java.io.PrintStream;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import io.slotkeeper.soak.FaultSchedule.Fault;

import static org.awaitility.Awaitility.await;

/**
 * A soak of the whole pipeline: faults (drawn from a seed, {@link FaultSchedule}, or a
 * fixed play list), one after another with a gap of their own, for a given time; then the
 * writers stop, the pipeline is given time to be whole, and the verdict
 * ({@link SoakVerdict}) is taken from the database, the topic and slot-keeper's own
 * words.
 */
final class Soak {

	private Soak() {
	}

	/**
	 * Runs a soak and prints its figures.
	 * @param seed the seed of the world's writers (printed first, with the faults', to
	 * play a failed run again)
	 * @param faults the faults, played one after another until there are no more or the
	 * length is over
	 * @param length how long faults are injected at most
	 * @param out where the figures go
	 * @return the verdict
	 */
	static SoakVerdict run(long seed, Iterator<Fault> faults, Duration length, PrintStream out) {
		try (SoakWorld world = new SoakWorld(seed, 20); Watchers watchers = new Watchers(world)) {
			Injector injector = new Injector(world);
			List<Played> played = new ArrayList<>();
			// The first fault finds every consumer streaming, its first rows arrived: a
			// connector still starting is not a fault drawn.
			await().atMost(Duration.ofSeconds(120))
				.pollInterval(Duration.ofMillis(500))
				.until(() -> injector.allStreaming()
						&& world.pipelines.stream().allMatch((pipeline) -> pipeline.view.events() > 0));
			long deadline = System.nanoTime() + length.toNanos();
			while (faults.hasNext()) {
				Fault fault = faults.next();
				long wait = Math.min(fault.gapSeconds() * 1000L,
						Math.max(0, (deadline - System.nanoTime()) / 1_000_000));
				pause(wait);
				if (System.nanoTime() >= deadline) {
					break;
				}
				long start = System.currentTimeMillis();
				long elapsed = length.toSeconds() - Math.max(0, (deadline - System.nanoTime()) / 1_000_000_000);
				out.printf("soak: %s, at %d:%02d%n", fault, elapsed / 60, elapsed % 60);
				Injector.Outcome outcome = injector.play(fault);
				if (outcome.notPlayed() != null) {
					out.printf("soak: %s not played as drawn: %s%n", fault, outcome.notPlayed());
				}
				played.add(new Played(fault, start, System.currentTimeMillis(), outcome));
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
	 * @param outcome what came of it: for a lost slot the time until it was usable again,
	 * and why it was not played as drawn
	 */
	record Played(Fault fault, long start, long end, Injector.Outcome outcome) {
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
