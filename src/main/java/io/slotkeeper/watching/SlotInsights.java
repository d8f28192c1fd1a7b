package io.slotkeeper.watching;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.regex.Pattern;

import io.slotkeeper.config.HeartbeatMode;
import io.slotkeeper.config.HeartbeatProperties;
import io.slotkeeper.fleet.BeatLog.Beat;
import io.slotkeeper.fleet.Target;
import io.slotkeeper.replication.ReplicationSlot;
import io.slotkeeper.replication.SlotBudget;
import io.slotkeeper.replication.SlotInsight;
import io.slotkeeper.replication.SlotPoll;
import io.slotkeeper.sessions.Lsn;

/**
 * Why is my slot stuck? At every poll, for every logical slot of the target's own
 * database: did its consumer confirm the heartbeat written {@code ack-intervals}
 * intervals ago, and if not, why — no consumer, a consumer that does not confirm, or a
 * message heartbeat that a pgoutput consumer did not ask for. And for every slot with a
 * WAL limit: how soon it will be lost at the rate its {@code safe_wal_size} shrank over
 * the last minute of polls.
 */
public final class SlotInsights {

	public static final String OK = "ok";

	public static final String INACTIVE = "inactive";

	/**
	 * The start of the diagnosis of a slot the server invalidated, followed by the
	 * server's reason.
	 */
	public static final String INVALIDATED = "invalidated: ";

	public static final String NOT_CONFIRMING = "consumer not confirming";

	public static final String NO_MESSAGES = "message mode but the consumer did not ask for messages"
			+ " — use table mode with the table in the publication";

	// How a walsender's START_REPLICATION shows that its consumer asked pgoutput for
	// logical messages.
	private static final Pattern ASKS_FOR_MESSAGES = Pattern.compile("\"?messages\"?\\s+'(true|on|1)'",
			Pattern.CASE_INSENSITIVE);

	private static final Duration RATE_WINDOW = Duration.ofMinutes(1);

	private final Map<String, Map<String, SlotInsight>> insights = new ConcurrentHashMap<>();

	// safe_wal_size samples of the last minute per slot: a rate over a minute is steadier
	// than one between two polls.
	private final Map<String, Map<String, Deque<Sample>>> samples = new ConcurrentHashMap<>();

	// When a poll first saw each slot inactive, for servers before 17 that do not say.
	private final Map<String, Map<String, Instant>> inactiveSeen = new ConcurrentHashMap<>();

	/**
	 * Concludes, for every slot of one poll, from the heartbeats the target's beat log
	 * holds.
	 * @param target the target
	 * @param poll what the poll read
	 * @param walBytesPerSecond the WAL the server wrote per second over the last hour,
	 * when known
	 * @param now when
	 */
	void update(Target target, SlotPoll poll, Optional<Double> walBytesPerSecond, Instant now) {
		List<Beat> written = target.beats().list();
		HeartbeatProperties heartbeat = target.properties().heartbeat();
		Map<String, Deque<Sample>> history = this.samples.computeIfAbsent(target.name(),
				(name) -> new ConcurrentHashMap<>());
		Map<String, Instant> gone = this.inactiveSeen.computeIfAbsent(target.name(),
				(name) -> new ConcurrentHashMap<>());
		Map<String, SlotInsight> current = new HashMap<>();
		for (ReplicationSlot slot : poll.slots()) {
			boolean ours = slot.logical() && Objects.equals(slot.database(), poll.database());
			Boolean acknowledged = ours ? acknowledged(heartbeat, slot, written, now) : null;
			String lastAcknowledged = ours ? lastAcknowledged(slot, written) : null;
			String diagnosis = ours ? diagnose(heartbeat, slot, acknowledged, poll.walsenderCommands()) : null;
			Deque<Sample> slotHistory = history.computeIfAbsent(slot.slotName(), (name) -> new ArrayDeque<>());
			if (slot.safeWalSizeBytes() == null) {
				slotHistory.clear();
			}
			while (slotHistory.size() > 1 && slotHistory.peekFirst().at().isBefore(now.minus(RATE_WINDOW))) {
				slotHistory.removeFirst();
			}
			current.put(slot.slotName(),
					new SlotInsight(acknowledged, lastAcknowledged, diagnosis,
							secondsToLoss(slotHistory.peekFirst(), slot, now),
							budget(slot, gone, walBytesPerSecond, now), target.lineages().of(slot.slotName())));
			if (slot.safeWalSizeBytes() != null) {
				slotHistory.addLast(new Sample(slot.safeWalSizeBytes(), now));
			}
		}
		history.keySet().retainAll(current.keySet());
		gone.keySet().retainAll(current.keySet());
		this.insights.put(target.name(), current);
	}

	/**
	 * What the last poll concluded about a slot of a target's primary.
	 * @param target the target's name
	 * @param slot the slot's name
	 * @return the insight, {@link SlotInsight#NONE} when none
	 */
	public SlotInsight of(String target, String slot) {
		return this.insights.getOrDefault(target, Map.of()).getOrDefault(slot, SlotInsight.NONE);
	}

	private static Boolean acknowledged(HeartbeatProperties heartbeat, ReplicationSlot slot, List<Beat> written,
			Instant now) {
		Instant dueBy = now.minus(heartbeat.cadence().acknowledgedWithin(heartbeat.ackIntervals()));
		Beat due = null;
		for (Beat beat : written) {
			if (!beat.at().isAfter(dueBy)) {
				due = beat;
			}
		}
		if (due == null) {
			return null;
		}
		return slot.confirmedFlushLsn() != null && Lsn.parse(slot.confirmedFlushLsn()) >= Lsn.parse(due.lsn());
	}

	private static String lastAcknowledged(ReplicationSlot slot, List<Beat> written) {
		if (slot.confirmedFlushLsn() == null) {
			return null;
		}
		long confirmed = Lsn.parse(slot.confirmedFlushLsn());
		String last = null;
		for (Beat beat : written) {
			if (Lsn.parse(beat.lsn()) <= confirmed) {
				last = beat.lsn();
			}
		}
		return last;
	}

	private static String diagnose(HeartbeatProperties heartbeat, ReplicationSlot slot, Boolean acknowledged,
			Map<Integer, String> walsenders) {
		if (slot.invalidated()) {
			return INVALIDATED + slot.invalidation();
		}
		if (!slot.streaming()) {
			return INACTIVE;
		}
		if (acknowledged == null) {
			return null;
		}
		if (acknowledged) {
			return OK;
		}
		String command = (slot.activePid() != null) ? walsenders.get(slot.activePid()) : null;
		boolean visible = command != null && command.toUpperCase().contains("START_REPLICATION");
		if (heartbeat.mode() == HeartbeatMode.MESSAGE && "pgoutput".equals(slot.plugin()) && visible
				&& !ASKS_FOR_MESSAGES.matcher(command).find()) {
			return NO_MESSAGES;
		}
		return NOT_CONFIRMING;
	}

	private static Double secondsToLoss(Sample before, ReplicationSlot slot, Instant now) {
		if (before == null || slot.safeWalSizeBytes() == null) {
			return null;
		}
		long shrunk = before.safeWalSize() - slot.safeWalSizeBytes();
		double seconds = Duration.between(before.at(), now).toNanos() / 1e9;
		if (shrunk <= 0 || seconds <= 0) {
			return null;
		}
		return Math.max(0, slot.safeWalSizeBytes()) / (shrunk / seconds);
	}

	// Before PostgreSQL 17 the server does not say since when a slot is inactive: the
	// first poll that saw it so does.
	private static SlotBudget budget(ReplicationSlot slot, Map<String, Instant> gone, Optional<Double> rate,
			Instant now) {
		if (!slot.logical() || !Boolean.FALSE.equals(slot.active()) || slot.invalidated()) {
			gone.remove(slot.slotName());
			return null;
		}
		Instant since = (slot.inactiveSince() != null) ? slot.inactiveSince().toInstant()
				: gone.computeIfAbsent(slot.slotName(), (name) -> now);
		Double perSecond = rate.filter((bytes) -> bytes > 0).orElse(null);
		Double left = (slot.safeWalSizeBytes() != null && perSecond != null)
				? Math.max(0, slot.safeWalSizeBytes()) / perSecond : null;
		return new SlotBudget(since, Math.max(0, Duration.between(since, now).toSeconds()), slot.safeWalSizeBytes(),
				rate.orElse(null), left);
	}

	private record Sample(long safeWalSize, Instant at) {
	}

	void forget(String target) {
		this.inactiveSeen.remove(target);
		this.insights.remove(target);
		this.samples.remove(target);
	}

}
