package io.slotkeeper.slot.watching;

import java.time.Clock;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

import io.micrometer.core.instrument.MeterRegistry;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import org.springframework.context.SmartLifecycle;

import io.slotkeeper.fleet.FailureDescription;
import io.slotkeeper.fleet.Target;
import io.slotkeeper.slot.reading.SlotRepository;
import io.slotkeeper.slot.reading.SlotView;

/**
 * Reads every target's slots every {@code slots-poll-interval} for the slot metrics and the {@code slots} health.
 * A target that fails to answer keeps its last gauges off (they are removed) and reports the error in health.
 */
public class SlotPoller implements SmartLifecycle {

	private static final Logger logger = LoggerFactory.getLogger(SlotPoller.class);

	private final List<Target> targets;

	private final SlotHealer healer;

	private final SlotInsights insights;

	private final MeterRegistry registry;

	private final Clock clock;

	private final Map<String, SlotSnapshot> snapshots = new ConcurrentHashMap<>();

	private final Map<String, SlotGauges> gauges = new ConcurrentHashMap<>();

	private volatile ScheduledExecutorService executor;

	/**
	 * Creates the poller, which also heals.
	 * @param targets the targets to poll
	 * @param healer heals lost slots whose policy says so
	 * @param insights concludes why slots are (not) moving and how soon they will be lost
	 * @param registry where the gauges go
	 * @param clock the clock
	 */
	SlotPoller(List<Target> targets, SlotHealer healer, SlotInsights insights, MeterRegistry registry, Clock clock) {
		this.targets = targets;
		this.healer = healer;
		this.insights = insights;
		this.registry = registry;
		this.clock = clock;
	}

	/**
	 * Why healing stopped for slots of a target.
	 * @param target the target's name
	 * @return the reasons by slot
	 */
	public Map<String, String> healingStopped(String target) {
		return this.healer.stopped(target);
	}

	/**
	 * The last poll of a target.
	 * @param target the target's name
	 * @return its snapshot, empty before the first poll ended
	 */
	public Optional<SlotSnapshot> snapshot(String target) {
		return Optional.ofNullable(this.snapshots.get(target));
	}

	/**
	 * Polls one target now.
	 * @param target the target
	 */
	void poll(Target target) {
		SlotGauges targetGauges = this.gauges.computeIfAbsent(target.name(), (name) -> new SlotGauges(name, this.registry));
		Instant now = this.clock.instant();
		try {
			SlotRepository.Poll poll = target.primary().withConnection(SlotRepository::poll);
			if (this.healer.heal(target, poll.slots())) {
				poll = target.primary().withConnection(SlotRepository::poll);
			}
			this.insights.update(target, poll, now);
			List<SlotView> current = poll.slots()
				.stream()
				.map((slot) -> SlotView.of(target.primary().name(), slot)
					.withInsight(this.insights.of(target.name(), slot.slotName())))
				.toList();
			targetGauges.update(current, now);
			this.snapshots.put(target.name(), new SlotSnapshot(now, current, null));
		}
		catch (RuntimeException ex) {
			targetGauges.update(List.of(), now);
			FailureDescription failure = FailureDescription.of(ex, now);
			SlotSnapshot previous = this.snapshots.put(target.name(), new SlotSnapshot(now, List.of(), failure));
			if (previous == null || previous.error() == null) {
				logger.warn("Reading the slots of target '{}' failed: {}", target.name(), failure.message());
			}
		}
	}

	@Override
	public void start() {
		if (this.targets.isEmpty()) {
			return;
		}
		ScheduledExecutorService scheduler = Executors.newScheduledThreadPool(Math.min(4, this.targets.size()),
				(runnable) -> {
					Thread thread = new Thread(runnable, "slot-poller");
					thread.setDaemon(true);
					return thread;
				});
		for (Target target : this.targets) {
			long interval = target.properties().slotsPollInterval().toMillis();
			scheduler.scheduleWithFixedDelay(() -> poll(target), 0, interval, TimeUnit.MILLISECONDS);
		}
		this.executor = scheduler;
	}

	@Override
	public void stop() {
		ScheduledExecutorService scheduler = this.executor;
		if (scheduler != null) {
			scheduler.shutdownNow();
			this.executor = null;
		}
	}

	@Override
	public boolean isRunning() {
		return this.executor != null;
	}

}
