package io.slotkeeper.testbed;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;

/**
 * A clock that moves only when told, for what slot-keeper times through its one
 * {@code Clock}.
 */
public final class SteppingClock extends Clock {

	private volatile Instant now;

	/**
	 * A clock at the given instant.
	 * @param start where it starts
	 */
	public SteppingClock(Instant start) {
		this.now = start;
	}

	/**
	 * Moves it on.
	 * @param by how far
	 */
	public void advance(Duration by) {
		this.now = this.now.plus(by);
	}

	@Override
	public Instant instant() {
		return this.now;
	}

	@Override
	public ZoneOffset getZone() {
		return ZoneOffset.UTC;
	}

	@Override
	public Clock withZone(ZoneId zone) {
		return this;
	}

}
