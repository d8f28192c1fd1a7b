package io.slotkeeper.heartbeat;

import org.springframework.util.backoff.BackOff;
import org.springframework.util.backoff.ExponentialBackOff;

import io.slotkeeper.config.BackoffProperties;

/**
 * The delays between retries after failed heartbeats: doubling from {@code min} up to
 * {@code max}, each varied randomly by up to {@code jitter} of itself and kept within
 * {@code [min, max]}.
 */
final class RetryDelays {

	private RetryDelays() {
	}

	static BackOff of(BackoffProperties properties) {
		long min = properties.min().toMillis();
		ExponentialBackOff backOff = new ExponentialBackOff(min, 2.0);
		backOff.setMaxInterval(properties.max().toMillis());
		// Spring scales the jitter with the delay (jitter x delay / initial), so a
		// fraction of the first delay is
		// that fraction of every delay.
		backOff.setJitter(Math.round(properties.jitter() * min));
		return backOff;
	}

}
