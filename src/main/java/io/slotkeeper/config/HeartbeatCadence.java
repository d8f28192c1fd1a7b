package io.slotkeeper.config;

import java.time.Duration;

/**
 * Every rule slot-keeper derives from a target's heartbeat interval, in one place: when
 * its health calls the beats stale, how long a heartbeat session may stay idle, how often
 * the instances up are read again and an owner is rechecked, how long a beat waits for
 * its standby snapshot, how the first beats of many targets are spread, how often a
 * slot's lineage is sampled, and within how long a consumer must confirm a beat.
 *
 * @param interval the time between two heartbeats of the target
 */
public record HeartbeatCadence(Duration interval) {

	private static final Duration MOST_SPREAD = Duration.ofSeconds(10);

	private static final Duration LEAST_REFRESH = Duration.ofSeconds(10);

	private static final Duration MOST_REFRESH = Duration.ofMinutes(5);

	// Every six beats: a minute at the default interval.
	private static final int LINEAGE_BEATS = 6;

	/**
	 * The interval in whole seconds, at least one: what a consumer's own heartbeat
	 * setting is compared with, and the WAL an idle slot keeps is told in.
	 * @return the seconds
	 */
	public long seconds() {
		return Math.max(1, this.interval.toSeconds());
	}

	/**
	 * Beats older than this make the target's heartbeat health DOWN.
	 * @return three intervals
	 */
	public Duration staleAfter() {
		return this.interval.multipliedBy(3);
	}

	/**
	 * How long a heartbeat session may stay idle before the server ends it: two
	 * intervals, a statement's timeout and a second, so that a beat that waited for a
	 * busy instance or server does not cost a reconnection.
	 * @param statementTimeout the target's statement timeout
	 * @return the idle timeout
	 */
	public Duration sessionIdle(Duration statementTimeout) {
		return this.interval.multipliedBy(2).plus(statementTimeout).plusSeconds(1);
	}

	/**
	 * How often the view of the instances up for the target is read again: two intervals,
	 * 10 s to 5 minutes.
	 * @return the refresh period
	 */
	public Duration presenceRefresh() {
		Duration twoIntervals = this.interval.multipliedBy(2);
		return (twoIntervals.compareTo(LEAST_REFRESH) < 0) ? LEAST_REFRESH
				: (twoIntervals.compareTo(MOST_REFRESH) > 0) ? MOST_REFRESH : twoIntervals;
	}

	/**
	 * When an instance that did not take the target's ownership asks again who holds it.
	 * @return two intervals
	 */
	public Duration ownerRecheck() {
		return this.interval.multipliedBy(2);
	}

	/**
	 * How long the owner's lock must have been free before another instance takes the
	 * target: the owner's idle timeout and one interval, the longest an owner that is
	 * merely late can go without a beat.
	 * @param idleTimeout the owner session's idle timeout
	 * @return the wait
	 */
	public Duration ownerGoneAfter(Duration idleTimeout) {
		return idleTimeout.plus(this.interval);
	}

	/**
	 * How long a beat waits for its consumers to confirm it before its standby snapshot:
	 * half an interval, at most {@code longest}.
	 * @param longest the longest wait
	 * @return the wait
	 */
	public Duration standbySnapshotWait(Duration longest) {
		Duration half = this.interval.dividedBy(2);
		return (half.compareTo(longest) < 0) ? half : longest;
	}

	/**
	 * Over how long the first beats are spread, so that many targets do not connect at
	 * once: one interval, at most 10 s.
	 * @return the spread
	 */
	public Duration firstBeatSpread() {
		return (this.interval.compareTo(MOST_SPREAD) < 0) ? this.interval : MOST_SPREAD;
	}

	/**
	 * How often a slot's lineage is sampled (its table counters read): every six beats.
	 * @return the period
	 */
	public Duration lineageEvery() {
		return this.interval.multipliedBy(LINEAGE_BEATS);
	}

	/**
	 * Within how long a consumer's confirmed position must pass a beat for its slot to
	 * count as acknowledging beats.
	 * @param ackIntervals the intervals allowed ({@code heartbeat.ack-intervals})
	 * @return the window
	 */
	public Duration acknowledgedWithin(int ackIntervals) {
		return this.interval.multipliedBy(ackIntervals);
	}

}
