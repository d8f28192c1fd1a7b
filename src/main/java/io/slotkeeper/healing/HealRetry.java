package io.slotkeeper.healing;

import java.time.Duration;
import java.time.Instant;

/**
 * When a failed heal may be tried again: doubling from 30 s up to 10 minutes, and how it
 * failed, so that a retry that fails the same way is neither audited nor logged again.
 *
 * @param notBefore the earliest time of the next attempt
 * @param delay the delay that led to it
 * @param detail how the last attempt failed
 */
record HealRetry(Instant notBefore, Duration delay, String detail) {

	private static final Duration FIRST = Duration.ofSeconds(30);

	private static final Duration LONGEST = Duration.ofMinutes(10);

	static HealRetry after(HealRetry previous, Instant now, String detail) {
		Duration delay = (previous == null) ? FIRST : previous.delay().multipliedBy(2);
		if (delay.compareTo(LONGEST) > 0) {
			delay = LONGEST;
		}
		return new HealRetry(now.plus(delay), delay, String.valueOf(detail));
	}

}
