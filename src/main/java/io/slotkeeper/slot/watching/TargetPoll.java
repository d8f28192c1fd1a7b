package io.slotkeeper.slot.watching;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ThreadLocalRandom;
import java.util.function.Supplier;

import io.micrometer.core.instrument.MeterRegistry;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.slotkeeper.config.SlotPolicyProperties;
import io.slotkeeper.fleet.FailureDescription;
import io.slotkeeper.fleet.Lane;
import io.slotkeeper.fleet.RepeatingTask;
import io.slotkeeper.fleet.Target;
import io.slotkeeper.settings.SettingGauges;
import io.slotkeeper.settings.SettingsAudit;
import io.slotkeeper.settings.SettingsView;
import io.slotkeeper.slot.reading.ReplicationSlot;
import io.slotkeeper.slot.reading.SlotPoll;
import io.slotkeeper.slot.reading.SlotView;

/**
 * One target's slot poll, repeated every {@code slots-poll-interval}: read the slots, conclude, update the gauges,
 * then hand the slow follow-ups to {@link FollowUps} — heal the lost and missing slots its policy says to (and read
 * again once one was), ask Kafka Connect about the slots' connectors. A failed poll keeps the last slots and gauges,
 * marked by their age, so that alerts on them do not resolve because the target went away.
 */
final class TargetPoll implements RepeatingTask {

	private static final Logger logger = LoggerFactory.getLogger(TargetPoll.class);

	private final Target target;

	private final SlotHealer healer;

	private final SlotInsights insights;

	private final ConnectorStates connectors;

	private final SlotSightings sightings;

	private final FailoverStates failover;

	private final RetainedHistory history;

	private final MeterRegistry registry;

	private final SlotGauges gauges;

	private final SettingsAudit settings;

	private final SettingGauges settingGauges;

	private final SettingGauges connectorGauges;

	private final PollMeters meters;

	private final StaleOffsets staleOffsets;

	private final FailedRestarts restarts;

	private final Clock clock;

	private final FollowUps followUps;

	private final Supplier<List<Target>> fleet;

	private volatile List<ReplicationSlot> serverSlots = List.of();

	private volatile SlotSnapshot snapshot;

	private volatile Lane lane = Lane.CONNECT;

	private volatile boolean readNowNext;

	TargetPoll(Target target, Supplier<List<Target>> fleet, SlotHealer healer, SlotWatch watch,
			MeterRegistry registry, Clock clock, FollowUps followUps) {
		this.target = target;
		this.fleet = fleet;
		this.followUps = followUps;
		this.healer = healer;
		this.insights = watch.insights();
		this.connectors = watch.connectors();
		this.sightings = watch.sightings();
		this.failover = watch.failover();
		this.history = watch.history();
		this.registry = registry;
		this.clock = clock;
		this.gauges = new SlotGauges(target.name(), registry);
		this.settings = watch.settings();
		this.settingGauges = new SettingGauges(target.name(), registry);
		this.connectorGauges = SettingGauges.connectors(registry);
		this.meters = new PollMeters(target.name(), target.properties().slotsPollInterval(), registry, clock);
		this.staleOffsets = new StaleOffsets(registry);
		this.restarts = new FailedRestarts(this.connectors.client(), healer.auditor(), registry, clock);
	}

	Target target() {
		return this.target;
	}

	SlotSnapshot snapshot() {
		return this.snapshot;
	}

	Map<String, String> staleOffsets() {
		return this.staleOffsets.summaries();
	}

	// Spread a little, so that many targets do not all borrow their first connection at the same moment.
	@Override
	public String about() {
		return this.target.name();
	}

	@Override
	public Duration firstDelay() {
		long spreadMillis = Math.min(this.target.properties().slotsPollInterval().toMillis(), 2000);
		return Duration.ofMillis(ThreadLocalRandom.current().nextLong(spreadMillis + 1));
	}

	@Override
	public Duration run() {
		boolean readNow = this.readNowNext;
		this.readNowNext = false;
		return poll(this.followUps, readNow);
	}

	/**
	 * Makes the next run read the server as it is then, not a reading another target of the server made shortly
	 * before: after the server behind the target changed.
	 */
	void readNowNext() {
		this.readNowNext = true;
	}

	/**
	 * Polls with every follow-up on this thread, for a caller that waits for all of it.
	 */
	void runInline() {
		poll(FollowUps.inline(), true);
	}

	// A run outside the schedule (after a failover) may meet the scheduled one, or a heal's read after it: they take
	// turns.
	private synchronized Duration poll(FollowUps followUps, boolean readNow) {
		Instant now = this.clock.instant();
		try {
			SlotPoll poll = read(now, readNow);
			// Policies are read at each poll: a discovered connector can bring one, or its recreate, at any time.
			List<SlotPolicyProperties> policies = this.target.policies();
			if (policies.stream().anyMatch(SlotPolicyProperties::actsOnLoss)) {
				followUps.heal(this.target.name(), () -> healFrom(poll));
			}
			if (this.healer.keepSize().concerns(this.target)) {
				followUps.guardKeepSize(this.target.name(), () -> this.settings.acted(this.target.name(),
						this.healer.keepSize().guard(this.target, this.fleet.get(), this.serverSlots, poll.settings(),
								this.insights::of)));
			}
			this.healer.connectors().primeCounters(this.target);
			if (this.healer.connectors().rechecksWaiting(this.target)) {
				followUps.recheckResnapshots(this.target.name(), () -> this.healer.connectors().recheckResnapshots(this.target));
			}
			if (policies.stream().anyMatch((slot) -> slot.connector() != null)) {
				followUps.checkConnectors(this.target.name(), () -> {
					this.connectors.refresh(this.target, poll.slots());
					this.connectorGauges.update(this.connectors.findings(this.target.name()));
				});
				followUps.completeHandovers(this.target.name(), () -> handOver(poll));
			}
			if (!this.target.properties().replicas().isEmpty()) {
				this.failover.update(this.target, poll.slots(), this.registry);
				if (this.healer.dropOrphans(this.target, this.failover.orphans(this.target.name()))) {
					this.failover.update(this.target, poll.slots(), this.registry);
				}
			}
		}
		catch (RuntimeException ex) {
			failed(ex, now);
		}
		return this.target.properties().slotsPollInterval();
	}

	// As for the slots' own meters, an instance standing by exports nothing: the owner does, so an alert fires once.
	private void handOver(SlotPoll poll) {
		List<ReplicationSlot> slots = Boolean.FALSE.equals(this.target.ownership().state()) ? List.of() : poll.slots();
		this.healer.connectors().alignStaleOffsets(this.target, this.staleOffsets.update(this.target, this.connectors, slots));
		this.healer.connectors().completeHandovers(this.target);
		this.restarts.restartFailed(this.target, this.connectors, slots);
	}

	private void healFrom(SlotPoll poll) {
		boolean healed = this.healer.heal(this.target, poll.slots());
		healed |= this.healer.healMissing(this.target, this.sightings.missing(this.target.name()));
		this.healer.connectors().handOverMadeAnew(this.target, this.sightings.takeMadeAnew(this.target.name()),
				(slot) -> this.sightings.again(this.target.name(), slot));
		if (healed) {
			readAgain();
		}
	}

	private synchronized void readAgain() {
		Instant now = this.clock.instant();
		try {
			read(now, true);
		}
		catch (RuntimeException ex) {
			failed(ex, now);
		}
	}

	// A reading another target of the server made within most of the interval serves a scheduled poll; one after a
	// heal or for a caller who waits must see the server as it is now.
	private SlotPoll read(Instant now, boolean readNow) {
		SlotPoll server = this.target.readServer(SlotPoll::read, readNow);
		this.serverSlots = server.slots();
		String database = this.target.database().orElse(server.database());
		// A discovered target shows its own database's slots, a configured one every slot of its server.
		SlotPoll poll = this.target.origin().isPresent() ? server.dealtTo(database) : server.in(database);
		this.sightings.update(this.target, poll.slots(), now);
		SettingsView judged = this.settings.update(this.target.name(), poll.settings(),
				this.target.properties().lossWarning(), now);
		this.settingGauges.update(judged.findings());
		this.insights.update(this.target, poll, Optional.ofNullable(judged.walBytesPerSecond()), now);
		this.history.update(this.target.name(), poll.slots(), now);
		List<SlotView> current = poll.slots()
			.stream()
			.map((slot) -> SlotView.of(this.target.primary().name(), slot)
				.withInsight(this.insights.of(this.target.name(), slot.slotName())))
			.toList();
		// An instance standing by for another's ownership exports nothing of the slots: the owner does. Without a known
		// owner (no heartbeat session, heartbeat disabled) every instance exports them.
		if (Boolean.FALSE.equals(this.target.ownership().state())) {
			this.gauges.withdraw();
		}
		else {
			this.gauges.update(current, now);
			this.gauges.missing(this.target.policies(), this.sightings.missing(this.target.name()));
		}
		this.meters.succeeded(now);
		this.lane = Lane.QUICK;
		this.snapshot = new SlotSnapshot(now, current, null, now);
		return poll;
	}

	@Override
	public synchronized Duration escaped(Throwable failure) {
		failed(failure, this.clock.instant());
		return this.target.properties().slotsPollInterval();
	}

	@Override
	public Lane lane() {
		return this.lane;
	}

	private void failed(Throwable ex, Instant now) {
		this.lane = Lane.RETRY;
		this.meters.failed();
		FailureDescription failure = FailureDescription.of(ex, now);
		SlotSnapshot previous = this.snapshot;
		this.snapshot = new SlotSnapshot(now, (previous != null) ? previous.slots() : List.of(), failure,
				(previous != null) ? previous.lastGoodAt() : null);
		if (previous == null || previous.error() == null) {
			logger.warn("Reading the slots of target '{}' failed: {}; its slot gauges keep their last values",
					this.target.name(), failure.message());
		}
	}

}
