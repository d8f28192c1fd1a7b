package io.slotkeeper.watching;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ThreadLocalRandom;
import java.util.function.Supplier;

import io.micrometer.core.instrument.MeterRegistry;

import io.slotkeeper.fleet.Target;
import io.slotkeeper.lanes.Lane;
import io.slotkeeper.lanes.RepeatingTask;
import io.slotkeeper.replication.ReplicationSlot;
import io.slotkeeper.replication.SlotPoll;
import io.slotkeeper.replication.SlotView;
import io.slotkeeper.settings.SettingGauges;
import io.slotkeeper.settings.SettingsAudit;
import io.slotkeeper.settings.SettingsView;

/**
 * One target's slot poll, repeated every {@code slots-poll-interval}: read the slots,
 * conclude, update the gauges, then hand the slow duties to its {@link PollDuties}
 * (healing, connectors, failover). A failed poll keeps the last slots and gauges, marked
 * by their age, so that alerts on them do not resolve because the target went away.
 */
final class TargetPoll implements RepeatingTask {

	private final Target target;

	private final SlotInsights insights;

	private final SlotSightings sightings;

	private final RetainedHistory history;

	private final SlotGauges gauges;

	private final SettingsAudit settings;

	private final SettingGauges settingGauges;

	private final PollOutcome outcome;

	private final PollDuties.TargetDuties duties;

	private final Clock clock;

	private final DutyLanes dutyLanes;

	private volatile List<ReplicationSlot> serverSlots = List.of();

	private volatile boolean readNowNext;

	TargetPoll(Target target, PollDuties.TargetDuties duties, SlotWatch watch, MeterRegistry registry, Clock clock,
			DutyLanes dutyLanes) {
		this.target = target;
		this.dutyLanes = dutyLanes;
		this.insights = watch.insights();
		this.sightings = watch.sightings();
		this.history = watch.history();
		this.clock = clock;
		this.gauges = new SlotGauges(target.name(), registry);
		this.settings = watch.settings();
		this.settingGauges = new SettingGauges(target.name(), registry);
		this.outcome = new PollOutcome(target, registry, clock);
		this.duties = duties;
	}

	Target target() {
		return this.target;
	}

	SlotSnapshot snapshot() {
		return this.outcome.snapshot();
	}

	Map<String, String> staleOffsets() {
		return this.duties.staleOffsets();
	}

	// Spread a little, so that many targets do not all borrow their first connection at
	// the same moment.
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
		return poll(this.dutyLanes, readNow);
	}

	/**
	 * Makes the next run read the server as it is then, not a reading another target of
	 * the server made shortly before: after the server behind the target changed.
	 */
	void readNowNext() {
		this.readNowNext = true;
	}

	/**
	 * Polls with every duty on this thread, for a caller that waits for all of it.
	 */
	void runInline() {
		poll(DutyLanes.inline(), true);
	}

	// A run outside the schedule (after a failover) may meet the scheduled one, or a
	// heal's read after it: they take
	// turns.
	private synchronized Duration poll(DutyLanes dutyLanes, boolean readNow) {
		Instant now = this.clock.instant();
		try {
			SlotPoll poll = read(now, readNow);
			this.duties.follow(poll, this.serverSlots, dutyLanes, this::readAgain);
		}
		catch (RuntimeException ex) {
			this.outcome.failed(ex, now);
		}
		return this.target.properties().slotsPollInterval();
	}

	private synchronized void readAgain() {
		Instant now = this.clock.instant();
		try {
			read(now, true);
		}
		catch (RuntimeException ex) {
			this.outcome.failed(ex, now);
		}
	}

	// A reading another target of the server made within most of the interval serves a
	// scheduled poll; one after a
	// heal or for a caller who waits must see the server as it is now.
	private SlotPoll read(Instant now, boolean readNow) {
		SlotPoll server = this.target.readServer(SlotPoll::read, readNow);
		this.serverSlots = server.slots();
		String database = this.target.database().orElse(server.database());
		// A discovered target shows its own database's slots, a configured one every slot
		// of its server.
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
		// An instance standing by for another's ownership exports nothing of the slots:
		// the owner does. Without a known
		// owner (no heartbeat session, heartbeat disabled) every instance exports them.
		if (Boolean.FALSE.equals(this.target.ownership().state())) {
			this.gauges.withdraw();
		}
		else {
			this.gauges.update(current, now);
			this.gauges.missing(this.target.slots().policies(), this.sightings.missing(this.target.name()));
		}
		this.outcome.succeeded(now, current);
		return poll;
	}

	@Override
	public synchronized Duration escaped(Throwable failure) {
		this.outcome.failed(failure, this.clock.instant());
		return this.target.properties().slotsPollInterval();
	}

	@Override
	public Lane lane() {
		return this.outcome.lane();
	}

}
