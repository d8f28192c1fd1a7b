package io.slotkeeper.soak;

import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * What runs beside the faults: the connector's restart policy (a task FAILED for 5 s is restarted, as Strimzi's
 * auto-restart or an operator's restart job would; a stopped connector is left alone), a sample of both instances'
 * owner gauge every second (never two owners of the target at once), of the slot every 250 ms read on the server
 * itself (never gone while its consumer was streaming from it), and of each instance's resident memory and threads and
 * slot-keeper's sessions on the server every 5 s.
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

	private volatile boolean slotActive;

	private final AtomicInteger activeSlotsGone = new AtomicInteger();

	private final AtomicLong mostRssKib = new AtomicLong();

	private final AtomicLong mostThreads = new AtomicLong();

	private final AtomicLong mostSessions = new AtomicLong();

	Watchers(SoakWorld world) {
		this.world = world;
		this.loop.scheduleWithFixedDelay(() -> guarded(this::restartFailed), 1, 1, TimeUnit.SECONDS);
		this.loop.scheduleWithFixedDelay(() -> guarded(this::sampleOwners), 1, 1, TimeUnit.SECONDS);
		this.loop.scheduleWithFixedDelay(() -> guarded(this::sampleSlot), 250, 250, TimeUnit.MILLISECONDS);
		this.loop.scheduleWithFixedDelay(() -> guarded(this::sampleResources), 5, 5, TimeUnit.SECONDS);
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

	// A slot that was active at the last sample and is gone now was dropped under its consumer (the server refuses to
	// drop an active slot, so only a walsender terminated first lets it).
	private void sampleSlot() {
		String active = this.world.server.queryForString(this.world.database, "SELECT active::text FROM"
				+ " pg_replication_slots WHERE slot_name = '" + SoakWorld.SLOT + "'");
		if (active == null && this.slotActive) {
			this.activeSlotsGone.incrementAndGet();
		}
		this.slotActive = "true".equals(active);
	}

	private void sampleResources() {
		for (Instance instance : this.world.instances) {
			long[] held = instance.resources();
			this.mostRssKib.accumulateAndGet(held[0], Math::max);
			this.mostThreads.accumulateAndGet(held[1], Math::max);
		}
		String sessions = this.world.server.queryForString(this.world.database, "SELECT count(*) FROM"
				+ " pg_stat_activity WHERE application_name = 'slot-keeper'");
		this.mostSessions.accumulateAndGet(Long.parseLong(sessions), Math::max);
	}

	int activeSlotsGone() {
		return this.activeSlotsGone.get();
	}

	/**
	 * The most each instance held at a sample: resident memory (MiB), threads, and both instances' sessions on the
	 * server.
	 * @return {@code {rss MiB, threads, sessions}}
	 */
	long[] mostHeld() {
		return new long[] { this.mostRssKib.get() / 1024, this.mostThreads.get(), this.mostSessions.get() };
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
