package io.slotkeeper.fleet;

import java.time.Instant;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;

/**
 * The heartbeats this instance wrote into a target lately: enough to look back a few
 * intervals when checking whether consumers acknowledge them. The heartbeat writes it;
 * the slot insights read it.
 */
public final class BeatLog {

	private static final int CAPACITY = 256;

	private final Deque<Beat> beats = new ArrayDeque<>();

	/**
	 * Records a heartbeat written.
	 * @param beat the heartbeat
	 */
	public synchronized void add(Beat beat) {
		this.beats.addLast(beat);
		while (this.beats.size() > CAPACITY) {
			this.beats.removeFirst();
		}
	}

	/**
	 * The heartbeats kept, oldest first.
	 * @return a copy
	 */
	public synchronized List<Beat> list() {
		return new ArrayList<>(this.beats);
	}

	/**
	 * A heartbeat written by this instance.
	 *
	 * @param lsn the LSN it wrote
	 * @param at when it was written
	 */
	public record Beat(String lsn, Instant at) {
	}

}
