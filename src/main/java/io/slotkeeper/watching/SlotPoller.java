package io.slotkeeper.watching;

import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

import io.micrometer.core.instrument.MeterRegistry;

import org.springframework.context.event.EventListener;

import io.slotkeeper.config.ConnectionProperties;
import io.slotkeeper.failover.TargetFailedOver;
import io.slotkeeper.fleet.Fleet;
import io.slotkeeper.fleet.FleetListener;
import io.slotkeeper.fleet.Target;
import io.slotkeeper.lanes.LaneWatch;
import io.slotkeeper.lanes.RepeatingTasks;

/**
 * Reads every target's slots every {@code slots-poll-interval} for the slot metrics, the
 * {@code slots} health, healing and the connectors' states. Each target polls on its own
 * schedule ({@link RepeatingTasks}): a down or hung target delays only its own poll.
 */
public class SlotPoller extends RepeatingTasks implements FleetListener {

	private static final int QUICK_THREADS = 4;

	private static final int CONNECT_THREADS = 8;

	private static final int RETRY_THREADS = 4;

	private final Map<String, TargetPoll> polls = new ConcurrentHashMap<>();

	private final Fleet fleet;

	private final SlotWatch watch;

	private final MeterRegistry registry;

	private final Clock clock;

	private final PollDuties followers;

	private final SlotSightings sightings;

	private final DutyLanes dutyLanes;

	/**
	 * Creates the poller, which also heals, of the fleet's targets now and of those that
	 * join later.
	 * @param fleet the targets to poll, watched
	 * @param followers what follows each poll: healing, handovers, the WAL-limit guard
	 * @param watch where the polls' conclusions, connectors' states and sightings go
	 * @param registry where the gauges go
	 * @param clock the clock
	 */
	public SlotPoller(Fleet fleet, PollDuties followers, SlotWatch watch, LaneWatch lanes, MeterRegistry registry,
			Clock clock) {
		super("slot-poller", longestPoll(fleet), lanes, QUICK_THREADS, CONNECT_THREADS, RETRY_THREADS);
		this.fleet = fleet;
		this.followers = followers;
		this.sightings = watch.sightings();
		this.watch = watch;
		this.registry = registry;
		this.clock = clock;
		this.dutyLanes = DutyLanes.pooled(lanes, longestPoll(fleet));
		fleet.watch(this);
	}

	@Override
	public void joined(Target target) {
		TargetPoll poll = new TargetPoll(target, this.followers.of(target, this.fleet::all, this.watch), this.watch,
				this.registry, this.clock, this.dutyLanes);
		this.polls.put(target.name(), poll);
		joined(poll);
	}

	@Override
	public void left(Target target) {
		TargetPoll poll = this.polls.remove(target.name());
		if (poll != null) {
			left(poll);
			this.watch.forget(target.name());
		}
	}

	/**
	 * The configured slots a target's primary did not have at its last good poll.
	 * @param target the target's name
	 * @return the missing slots' names
	 */
	public List<String> missing(String target) {
		return this.sightings.missing(target).stream().map(SlotSightings.Missing::name).toList();
	}

	private static Duration longestPoll(Fleet fleet) {
		return fleet.connections()
			.stream()
			.map(ConnectionProperties::pooledStatementBound)
			.max(Duration::compareTo)
			.orElse(Duration.ofSeconds(1));
	}

	@Override
	protected List<TargetPoll> tasks() {
		return List.copyOf(this.polls.values());
	}

	/**
	 * The slots whose connector's task failed on a stored offset older than the slot, as
	 * last found.
	 * @param target the target's name
	 * @return by slot, the connector's state in a few words
	 */
	public Map<String, String> staleOffsets(String target) {
		TargetPoll poll = this.polls.get(target);
		return (poll != null) ? poll.staleOffsets() : Map.of();
	}

	/**
	 * The last poll of a target.
	 * @param target the target's name
	 * @return its snapshot, empty before the first poll ended
	 */
	public Optional<SlotSnapshot> snapshot(String target) {
		TargetPoll poll = this.polls.get(target);
		return Optional.ofNullable((poll != null) ? poll.snapshot() : null);
	}

	/**
	 * Polls one target now, outside its schedule, on this thread, healing and asking
	 * Kafka Connect on it too.
	 * @param target the target's name
	 */
	void poll(String target) {
		TargetPoll poll = this.polls.get(target);
		if (poll != null) {
			poll.runInline();
		}
	}

	@Override
	public synchronized void start() {
		this.dutyLanes.open();
		super.start();
	}

	@Override
	public synchronized void stop() {
		super.stop();
		this.dutyLanes.close();
	}

	/**
	 * Polls a target that failed over as soon as a worker can.
	 * @param failover the failover noticed
	 */
	@EventListener
	void failedOver(TargetFailedOver failover) {
		pollSoon(failover.target());
	}

	/**
	 * Polls one target as soon as a worker can, outside its schedule, reading its server
	 * as it is then.
	 * @param target the target's name
	 */
	void pollSoon(String target) {
		TargetPoll poll = this.polls.get(target);
		if (poll != null) {
			poll.readNowNext();
			runSoon(poll);
		}
	}

}
