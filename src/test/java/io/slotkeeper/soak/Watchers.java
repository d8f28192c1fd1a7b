package io.slotkeeper.soak;

import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * What runs beside the faults: the connector's restart policy (a task FAILED for 5 s is restarted, as Strimzi's
 * auto-restart or an operator's restart job would; a stopped connector is left alone), and a sample of both
 * instances' owner gauge every second (never two owners of the target at once).
 */
final class Watchers implements AutoCloseable {

	private static final Pattern OWNER = Pattern.compile("^slotkeeper_heartbeat_owner\\{[^}]*target=\"orders\"[^}]*\\}"
			+ " ([0-9.]+)$", Pattern.MULTILINE);

	private final SoakWorld world;

	private final ScheduledExecutorService loop = Executors.newScheduledThreadPool(2);

	private final AtomicInteger restarts = new AtomicInteger();

	private final AtomicInteger mostOwners = new AtomicInteger();

	private final AtomicInteger samples = new AtomicInteger();

	private volatile long failedSince;

	Watchers(SoakWorld world) {
		this.world = world;
		this.loop.scheduleWithFixedDelay(() -> guarded(this::restartFailed), 1, 1, TimeUnit.SECONDS);
		this.loop.scheduleWithFixedDelay(() -> guarded(this::sampleOwners), 1, 1, TimeUnit.SECONDS);
	}

	// A worker that is down answers nothing: try again at the next tick rather than end the schedule.
	private static void guarded(Runnable work) {
		try {
			work.run();
		}
		catch (RuntimeException ex) {
			// next tick
		}
	}

	private void restartFailed() {
		if (!"FAILED".equals(this.world.connect.state())) {
			this.failedSince = 0;
			return;
		}
		long now = System.nanoTime();
		if (this.failedSince == 0) {
			this.failedSince = now;
		}
		else if (now - this.failedSince > TimeUnit.SECONDS.toNanos(5)) {
			this.world.connect.restart();
			this.restarts.incrementAndGet();
			this.failedSince = 0;
		}
	}

	private void sampleOwners() {
		int owners = 0;
		for (Instance instance : this.world.instances) {
			String scrape = instance.get("/actuator/prometheus", null);
			Matcher owner = (scrape != null) ? OWNER.matcher(scrape) : null;
			if (owner != null && owner.find() && Double.parseDouble(owner.group(1)) == 1.0) {
				owners++;
			}
		}
		this.samples.incrementAndGet();
		this.mostOwners.accumulateAndGet(owners, Math::max);
	}

	int restarts() {
		return this.restarts.get();
	}

	int mostOwners() {
		return this.mostOwners.get();
	}

	int samples() {
		return this.samples.get();
	}

	@Override
	public void close() {
		this.loop.shutdownNow();
	}

}
