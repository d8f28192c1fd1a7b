package io.slotkeeper.settings;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.Optional;

/**
 * The WAL a server writes per second, over the last hour of one target's polls: what a
 * slot whose consumer stops starts to keep. It keeps one sample a minute and the latest,
 * so a target costs the same at a 1 s poll interval as at 30 s (at most 62 samples).
 */
final class WalRate {

	static final Duration WINDOW = Duration.ofHours(1);

	static final Duration STEP = Duration.ofMinutes(1);

	private final Deque<Sample> samples = new ArrayDeque<>();

	private Sample latest;

	/**
	 * Records where the server's WAL was; a reading no newer than the last is ignored.
	 * @param at when, by the server's clock
	 * @param position the WAL position in bytes
	 */
	synchronized void record(Instant at, long position) {
		// The targets of one server share its readings: the same reading handed to a
		// second poll is no new sample.
		if (this.latest != null && !at.isAfter(this.latest.at())) {
			return;
		}
		// A position that goes back is another server (a failover, a restore): its
		// history is not this one's.
		if (this.latest != null && position < this.latest.position()) {
			this.samples.clear();
		}
		this.latest = new Sample(at, position);
		Sample last = this.samples.peekLast();
		if (last == null || !at.isBefore(last.at().plus(STEP))) {
			this.samples.addLast(this.latest);
		}
		while (this.samples.size() > 1 && this.samples.peekFirst().at().isBefore(at.minus(WINDOW))) {
			this.samples.removeFirst();
		}
	}

	/**
	 * Bytes per second between the oldest sample of the hour and the latest.
	 * @return the rate, empty before two samples a second apart
	 */
	synchronized Optional<Double> perSecond() {
		Sample first = this.samples.peekFirst();
		if (first == null) {
			return Optional.empty();
		}
		double seconds = Duration.between(first.at(), this.latest.at()).toMillis() / 1000.0;
		return (seconds < 1) ? Optional.empty() : Optional.of((this.latest.position() - first.position()) / seconds);
	}

	/**
	 * How many samples it holds, the latest apart.
	 * @return the count
	 */
	synchronized int samples() {
		return this.samples.size();
	}

	private record Sample(Instant at, long position) {
	}

}
