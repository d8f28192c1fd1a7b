package io.slotkeeper.heartbeat;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;

/**
 * The last heartbeats written, enough to look back a few intervals when checking whether consumers acknowledge them.
 */
final class RecentBeats {

	private static final int CAPACITY = 256;

	private final Deque<WrittenBeat> beats = new ArrayDeque<>();

	synchronized void add(WrittenBeat beat) {
		this.beats.addLast(beat);
		while (this.beats.size() > CAPACITY) {
			this.beats.removeFirst();
		}
	}

	synchronized List<WrittenBeat> list() {
		return new ArrayList<>(this.beats);
	}

}
