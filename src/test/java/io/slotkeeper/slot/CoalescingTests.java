package io.slotkeeper.slot;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

/**
 * Callers asking together are served by one run, and never by a run that started before
 * they asked.
 */
class CoalescingTests {

	private final Coalescing<String, Integer> coalescing = new Coalescing<>();

	private final AtomicInteger runs = new AtomicInteger();

	@Test
	void callersArrivingDuringARunWaitForItAndShareTheNextOne() throws Exception {
		CountDownLatch firstStarted = new CountDownLatch(1);
		CountDownLatch releaseFirst = new CountDownLatch(1);
		CompletableFuture<Integer> first = CompletableFuture.supplyAsync(() -> this.coalescing.get("k", () -> {
			firstStarted.countDown();
			hold(releaseFirst);
			return this.runs.incrementAndGet();
		}));
		assertThat(firstStarted.await(10, TimeUnit.SECONDS)).isTrue();
		CompletableFuture<Integer> second = CompletableFuture.supplyAsync(() -> this.coalescing.get("k", this::run));
		CompletableFuture<Integer> third = CompletableFuture.supplyAsync(() -> this.coalescing.get("k", this::run));
		await().atMost(Duration.ofSeconds(10)).until(() -> this.coalescing.busy() == 2);
		await().during(Duration.ofMillis(200)).until(() -> !second.isDone() && !third.isDone());
		releaseFirst.countDown();
		assertThat(first.get(10, TimeUnit.SECONDS)).isEqualTo(1);
		assertThat(second.get(10, TimeUnit.SECONDS)).isEqualTo(2);
		assertThat(third.get(10, TimeUnit.SECONDS)).isEqualTo(2);
		assertThat(this.runs).hasValue(2);
		assertThat(this.coalescing.busy()).isZero();
	}

	@Test
	void aCallerAloneRunsAtOnceAndOtherKeysDoNotWait() {
		assertThat(this.coalescing.get("a", this::run)).isEqualTo(1);
		assertThat(this.coalescing.get("a", this::run)).isEqualTo(2);
		assertThat(this.coalescing.get("b", this::run)).isEqualTo(3);
		assertThat(this.coalescing.busy()).isZero();
	}

	@Test
	void aFailureIsThatRunsOnlyAndKeepsItsType() {
		IllegalStateException failure = new IllegalStateException("server down");
		assertThatThrownBy(() -> this.coalescing.get("k", () -> {
			throw failure;
		})).isSameAs(failure);
		assertThat(this.coalescing.get("k", this::run)).isEqualTo(1);
		assertThat(this.coalescing.busy()).isZero();
	}

	private int run() {
		return this.runs.incrementAndGet();
	}

	private static void hold(CountDownLatch latch) {
		try {
			latch.await(10, TimeUnit.SECONDS);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
		}
	}

}
