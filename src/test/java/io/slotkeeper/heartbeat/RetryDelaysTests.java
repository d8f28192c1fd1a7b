package io.slotkeeper.heartbeat;

import java.time.Duration;
import java.util.HashSet;
import java.util.Set;
import java.util.stream.LongStream;

import org.junit.jupiter.api.Test;

import org.springframework.util.backoff.BackOffExecution;

import io.slotkeeper.config.BackoffProperties;

import static org.assertj.core.api.Assertions.assertThat;

class RetryDelaysTests {

	@Test
	void delaysDoubleFromMinAndStopAtMax() {
		BackOffExecution delays = RetryDelays
			.of(new BackoffProperties(Duration.ofMillis(100), Duration.ofMillis(1000), 0))
			.start();
		assertThat(LongStream.generate(delays::nextBackOff).limit(7).toArray()).containsExactly(100, 200, 400, 800,
				1000, 1000, 1000);
	}

	@Test
	void jitterVariesEachDelayByAtMostItsFractionWithinMinAndMax() {
		Set<Long> seen = new HashSet<>();
		for (int run = 0; run < 200; run++) {
			BackOffExecution delays = RetryDelays
				.of(new BackoffProperties(Duration.ofMillis(1000), Duration.ofMillis(16000), 0.25))
				.start();
			long nominal = 1000;
			for (int attempt = 0; attempt < 6; attempt++) {
				long delay = delays.nextBackOff();
				seen.add(delay);
				assertThat(delay).isBetween(Math.max(1000, (long) (nominal * 0.75)),
						Math.min(16000, (long) (nominal * 1.25)));
				nominal = Math.min(nominal * 2, 16000);
			}
		}
		assertThat(seen).as("jitter actually varies the delays").hasSizeGreaterThan(50);
	}

}
