package io.slotkeeper.soak;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * What runs beside the faults: a sample every second of who holds each target's owner
 * lock on the server ({@link Owners}) against both instances' owner gauges (never an
 * instance claiming a target another holds), of the slots every 250 ms read on the server
 * itself (never gone while a consumer was streaming from it), and of each instance's
 * resident memory and threads and slot-keeper's sessions on the server every 5 s.
 */
final class Watchers implements AutoCloseable {

	private static final Pattern OWNER = Pattern
		.compile("^slotkeeper_heartbeat_owner\\{[^}]*target=\"([^\"]+)\"[^}]*\\}" + " ([0-9.]+)$", Pattern.MULTILINE);

	private final SoakWorld world;

	private final ScheduledExecutorService loop = Executors.newScheduledThreadPool(2);

	private final Owners owners;

	private final Map<String, Integer> claimStreaks = new HashMap<>();

	private final List<String> claimsOfAnothersTarget = new CopyOnWriteArrayList<>();

	private final AtomicInteger mostClaimants = new AtomicInteger();

	private final Map<String, Integer> lastHolder = new HashMap<>();

	private final Map<String, Long> withoutSince = new HashMap<>();

	private final AtomicInteger ownerChanges = new AtomicInteger();

	private final AtomicLong longestWithout = new AtomicLong();

	private final Map<String, Boolean> slotActive = new ConcurrentHashMap<>();

	private final AtomicInteger activeSlotsGone = new AtomicInteger();

	private final Map<String, Boolean> slotLost = new ConcurrentHashMap<>();

	private final Map<String, Integer> lossesSeen = new ConcurrentHashMap<>();

	private volatile int switchoversSeen;

	private final AtomicLong mostRssKib = new AtomicLong();

	private final AtomicLong mostThreads = new AtomicLong();

	private final AtomicLong mostSessions = new AtomicLong();

	private final AtomicLong mostSessionsOfOne = new AtomicLong();

	private final AtomicLong mostJournalBytes = new AtomicLong();

	private final AtomicLong mostCopyRetainedBytes = new AtomicLong();

	Watchers(SoakWorld world) {
		this.world = world;
		this.owners = new Owners(world);
		this.loop.scheduleWithFixedDelay(() -> guarded(this::sampleOwners), 1, 1, TimeUnit.SECONDS);
		this.loop.scheduleWithFixedDelay(() -> guarded(this::sampleSlots), 250, 250, TimeUnit.MILLISECONDS);
		this.loop.scheduleWithFixedDelay(() -> guarded(this::sampleResources), 5, 5, TimeUnit.SECONDS);
	}

	// A worker that is down answers nothing: try again at the next tick rather than end
	// the schedule.
	private static void guarded(Runnable work) {
		try {
			work.run();
		}
		catch (RuntimeException ex) {
			// next tick
		}
	}

	// Each second: who holds each target's owner lock, and who claims it. A claim by one
	// instance while the other's session holds the lock is two owners at once: counted
	// once it lasts 3 samples (a claim lags its lock's loss by up to a heartbeat).
	private void sampleOwners() {
		Map<String, Integer> holders = this.owners.now();
		Map<String, Integer> claimants = new HashMap<>();
		for (int n = 0; n < this.world.instances.size(); n++) {
			String scrape = this.world.instances.get(n).get("/actuator/prometheus", null);
			Matcher owner = (scrape != null) ? OWNER.matcher(scrape) : null;
			while (owner != null && owner.find()) {
				String target = owner.group(1);
				String claim = n + " " + target;
				boolean claimed = Double.parseDouble(owner.group(2)) == 1.0;
				claimants.merge(target, claimed ? 1 : 0, Integer::sum);
				Integer holder = holders.get(target);
				if (claimed && holder != null && holder >= 0 && holder != n) {
					if (this.claimStreaks.merge(claim, 1, Integer::sum) == 3) {
						this.claimsOfAnothersTarget
							.add(String.format("%s: instance-%d claimed %s, whose owner lock" + " instance-%d held",
									java.time.Instant.now(), n, target, holder));
					}
				}
				else {
					this.claimStreaks.remove(claim);
				}
			}
		}
		claimants.values().forEach((count) -> this.mostClaimants.accumulateAndGet(count, Math::max));
		long now = System.currentTimeMillis();
		holders.forEach((target, holder) -> {
			if (holder >= 0) {
				Integer last = this.lastHolder.put(target, holder);
				if (last != null && !last.equals(holder)) {
					this.ownerChanges.incrementAndGet();
				}
				Long since = this.withoutSince.remove(target);
				if (since != null) {
					this.longestWithout.accumulateAndGet(now - since, Math::max);
				}
			}
			else {
				this.withoutSince.putIfAbsent(target, now);
			}
		});
	}

	// A slot that was active at the last sample and is gone now was dropped under its
	// consumer (the server refuses to
	// drop an active slot, so only a walsender terminated first lets it).
	private void sampleSlots() {
		for (SoakPipeline pipeline : this.world.pipelines) {
			int switchovers = this.world.server.switchovers();
			String state = this.world.server.queryForString("postgres", "SELECT active::text || ' ' ||"
					+ " coalesce(wal_status, '') FROM pg_replication_slots WHERE slot_name = '" + pipeline.slot + "'");
			if (switchovers != this.world.server.switchovers() || switchovers != this.switchoversSeen) {
				// Another server now: its slots are what the standby held, not what a
				// consumer streamed from here.
				this.slotActive.clear();
				this.switchoversSeen = switchovers;
				return;
			}
			String active = (state != null) ? state.substring(0, state.indexOf(' ')) : null;
			if (active == null && Boolean.TRUE.equals(this.slotActive.get(pipeline.slot))) {
				this.activeSlotsGone.incrementAndGet();
			}
			this.slotActive.put(pipeline.slot, "true".equals(active));
			// A loss lasts until the owner's poll (1 s) and its heal (seconds): a sample
			// every 250 ms sees each.
			boolean lost = state != null && state.endsWith(" lost");
			if (lost && !Boolean.TRUE.equals(this.slotLost.put(pipeline.target, true))) {
				this.lossesSeen.merge(pipeline.target, 1, Integer::sum);
			}
			else if (!lost) {
				this.slotLost.put(pipeline.target, false);
			}
		}
	}

	private void sampleResources() {
		for (Instance instance : this.world.instances) {
			long[] held = instance.resources();
			this.mostRssKib.accumulateAndGet(held[0], Math::max);
			this.mostThreads.accumulateAndGet(held[1], Math::max);
		}
		String sessions = this.world.server.queryForString("postgres",
				"SELECT count(*) FROM" + " pg_stat_activity WHERE application_name = 'slot-keeper'");
		long now = Long.parseLong(sessions);
		long before = this.mostSessions.getAndAccumulate(now, Math::max);
		sampleSessionsPerInstance();
		this.mostJournalBytes.accumulateAndGet(journalBytes(), Math::max);
		this.mostCopyRetainedBytes.accumulateAndGet(
				Long.parseLong(this.world.server.queryForString("postgres",
						"SELECT coalesce(max(pg_current_wal_lsn() - restart_lsn), 0)::bigint FROM pg_replication_slots"
								+ " WHERE slot_name LIKE 'slotkeeper\\_gap\\_%' AND restart_lsn IS NOT NULL")),
				Math::max);
		if (now > SoakVerdict.MOST_SESSIONS && now > before) {
			// Over the bound, a new most: what they are, so that a run that fails on it
			// says why.
			System.out.printf("soak: %d sessions of slot-keeper on the server: %s%n", now, this.world.server
				.queryForString("postgres", "SELECT string_agg(n || ' ' || d, ', ') FROM"
						+ " (SELECT count(*) AS n, datname || ' ' || state || ' ' || left(query, 40) AS d FROM"
						+ " pg_stat_activity WHERE application_name = 'slot-keeper' GROUP BY 2 ORDER BY 1 DESC) s"));
		}
	}

	// Each session traced to the instance it came from (Owners): a bound per instance,
	// not only for both.
	private void sampleSessionsPerInstance() {
		Map<Integer, Long> perInstance = new HashMap<>();
		try (java.sql.Connection connection = this.world.server.connect("postgres");
				java.sql.Statement statement = connection.createStatement();
				java.sql.ResultSet sessions = statement.executeQuery("SELECT client_port FROM pg_stat_activity"
						+ " WHERE application_name = 'slot-keeper' AND client_port IS NOT NULL")) {
			while (sessions.next()) {
				perInstance.merge(this.owners.instanceOf(sessions.getInt(1)), 1L, Long::sum);
			}
		}
		catch (java.sql.SQLException ex) {
			throw new IllegalStateException(ex);
		}
		perInstance.forEach((instance, count) -> {
			if (instance >= 0) {
				this.mostSessionsOfOne.accumulateAndGet(count, Math::max);
			}
		});
	}

	// What the gap journals hold where they are kept: their tables in every database of
	// the server that has them.
	private long journalBytes() {
		long bytes = 0;
		List<String> databases = new java.util.ArrayList<>(List.of("postgres"));
		this.world.pipelines.forEach((pipeline) -> databases.add(pipeline.database));
		for (String database : databases) {
			bytes += Long.parseLong(this.world.server.queryForString(database,
					"SELECT coalesce(sum(pg_total_relation_size(c.oid)), 0)::bigint FROM pg_class c"
							+ " JOIN pg_namespace n ON n.oid = c.relnamespace WHERE n.nspname = 'slotkeeper'"
							+ " AND c.relkind = 'r' AND c.relname LIKE 'gap\\_%'"));
		}
		return bytes;
	}

	/**
	 * The losses the harness saw, per target: each time its slot was {@code lost} at a
	 * sample after it was not.
	 * @return a copy
	 */
	Map<String, Integer> lossesSeen() {
		return Map.copyOf(this.lossesSeen);
	}

	int activeSlotsGone() {
		return this.activeSlotsGone.get();
	}

	/**
	 * The most held at a sample: by an instance, resident memory (MiB) and threads; both
	 * instances' sessions on the primary, and one instance's; the gap journals' tables
	 * (KiB); the WAL a copy of a slot retained (KiB).
	 * @return {@code {rss MiB, threads, sessions, sessions of one, journal KiB, copy's WAL
	 * KiB}}
	 */
	long[] mostHeld() {
		return new long[] { this.mostRssKib.get() / 1024, this.mostThreads.get(), this.mostSessions.get(),
				this.mostSessionsOfOne.get(), this.mostJournalBytes.get() / 1024,
				this.mostCopyRetainedBytes.get() / 1024 };
	}

	/**
	 * The owners as the server's locks said them, against the instances' claims; a target
	 * without an owner now counts until now.
	 * @return the figures
	 */
	Owned owned() {
		long now = System.currentTimeMillis();
		long longest = this.withoutSince.values().stream().mapToLong((since) -> now - since).max().orElse(0);
		return new Owned(List.copyOf(this.claimsOfAnothersTarget), this.mostClaimants.get(), this.ownerChanges.get(),
				Math.max(longest, this.longestWithout.get()));
	}

	@Override
	public void close() {
		this.loop.shutdownNow();
	}

}
