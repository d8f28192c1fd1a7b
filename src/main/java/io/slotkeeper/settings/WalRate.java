package io.slotkeeper.settings;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.Optional;

/**
 * The WAL a server writes per second, over the last hour of one target's polls: what a slot whose consumer stops
 * starts to keep.
 */
final class WalRate {

	static final Duration WINDOW = Duration.ofHours(1);

	private final Deque<Sample> samples = new ArrayDeque<>();

	/**
	 * Records where the server's WAL was; a reading no newer than the last is ignored.
	 * @param at when, by the server's clock
	 * @param position the WAL position in bytes
	 */
	synchronized void record(Instant at, long position) {
		Sample last = this.samples.peekLast();
		// The targets of one server share its readings: the same reading handed to a second poll is no new sample.
		if (last != null && !at.isAfter(last.at())) {
			return;
		}
		// A position that goes back is another server (a failover, a restore): its history is not this one's.
		if (last != null && position < last.position()) {
			this.samples.clear();
		}
		this.samples.addLast(new Sample(at, position));
		while (this.samples.size() > 2 && this.samples.peekFirst().at().isBefore(at.minus(WINDOW))) {
			this.samples.removeFirst();
		}
	}

	/**
	 * Bytes per second between the oldest sample of the hour and the newest.
	 * @return the rate, empty before two samples a second apart
	 */
	synchronized Optional<Double> perSecond() {
		Sample first = this.samples.peekFirst();
		Sample last = this.samples.peekLast();
		if (first == null || last == null) {
			return Optional.empty();
		}
		double seconds = Duration.between(first.at(), last.at()).toMillis() / 1000.0;
		return (seconds < 1) ? Optional.empty() : Optional.of((last.position() - first.position()) / seconds);
	}

	private record Sample(Instant at, long position) {
	}

}
