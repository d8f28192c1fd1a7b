package io.slotkeeper.slot;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;
import java.util.regex.Pattern;

import io.slotkeeper.config.HeartbeatMode;
import io.slotkeeper.config.HeartbeatProperties;
import io.slotkeeper.config.TargetProperties;
import io.slotkeeper.heartbeat.WrittenBeat;
import io.slotkeeper.target.Lsn;

/**
 * Why is my slot stuck? At every poll, for every logical slot of the target's own database: did its consumer confirm
 * the heartbeat written {@code ack-intervals} intervals ago, and if not, why — no consumer, a consumer that does not
 * confirm, or a message heartbeat that a pgoutput consumer did not ask for. And for every slot with a WAL limit: how
 * soon it will be lost at the rate its {@code safe_wal_size} shrank over the last minute of polls.
 */
final class SlotInsights {

	static final String OK = "ok";

	static final String INACTIVE = "inactive";

	static final String NOT_CONFIRMING = "consumer not confirming";

	static final String NO_MESSAGES = "message mode but the consumer did not ask for messages"
			+ " — use table mode with the table in the publication";

	// How a walsender's START_REPLICATION shows that its consumer asked pgoutput for logical messages.
	private static final Pattern ASKS_FOR_MESSAGES = Pattern.compile("\"?messages\"?\\s+'(true|on|1)'",
			Pattern.CASE_INSENSITIVE);

	private static final Duration RATE_WINDOW = Duration.ofMinutes(1);

	private final Function<String, List<WrittenBeat>> beats;

	private final Map<String, Map<String, SlotInsight>> insights = new ConcurrentHashMap<>();

	// safe_wal_size samples of the last minute per slot: a rate over a minute is steadier than one between two polls.
	private final Map<String, Map<String, Deque<Sample>>> samples = new ConcurrentHashMap<>();

	/**
	 * Creates the tracker.
	 * @param beats the heartbeats this instance wrote lately, by target name
	 */
	SlotInsights(Function<String, List<WrittenBeat>> beats) {
		this.beats = beats;
	}

	void update(TargetProperties target, SlotReader.Poll poll, Instant now) {
		List<WrittenBeat> written = this.beats.apply(target.name());
		Map<String, Deque<Sample>> history = this.samples.computeIfAbsent(target.name(),
				(name) -> new ConcurrentHashMap<>());
		Map<String, SlotInsight> current = new HashMap<>();
		for (SlotView slot : poll.slots()) {
			boolean ours = slot.logical() && Objects.equals(slot.database(), poll.database());
			Boolean acknowledged = ours ? acknowledged(target.heartbeat(), slot, written, now) : null;
			String lastAcknowledged = ours ? lastAcknowledged(slot, written) : null;
			String diagnosis = ours ? diagnose(target.heartbeat(), slot, acknowledged, poll.walsenderCommands()) : null;
			Deque<Sample> slotHistory = history.computeIfAbsent(slot.slotName(), (name) -> new ArrayDeque<>());
			if (slot.safeWalSizeBytes() == null) {
				slotHistory.clear();
			}
			while (slotHistory.size() > 1 && slotHistory.peekFirst().at().isBefore(now.minus(RATE_WINDOW))) {
				slotHistory.removeFirst();
			}
			current.put(slot.slotName(), new SlotInsight(acknowledged, lastAcknowledged, diagnosis,
					secondsToLoss(slotHistory.peekFirst(), slot, now)));
			if (slot.safeWalSizeBytes() != null) {
				slotHistory.addLast(new Sample(slot.safeWalSizeBytes(), now));
			}
		}
		history.keySet().retainAll(current.keySet());
		this.insights.put(target.name(), current);
	}

	SlotInsight of(String target, String slot) {
		return this.insights.getOrDefault(target, Map.of()).getOrDefault(slot, SlotInsight.NONE);
	}

	private static Boolean acknowledged(HeartbeatProperties heartbeat, SlotView slot, List<WrittenBeat> written,
			Instant now) {
		Instant dueBy = now.minus(heartbeat.interval().multipliedBy(heartbeat.ackIntervals()));
		WrittenBeat due = null;
		for (WrittenBeat beat : written) {
			if (!beat.at().isAfter(dueBy)) {
				due = beat;
			}
		}
		if (due == null) {
			return null;
		}
		return slot.confirmedFlushLsn() != null && Lsn.parse(slot.confirmedFlushLsn()) >= Lsn.parse(due.lsn());
	}

	private static String lastAcknowledged(SlotView slot, List<WrittenBeat> written) {
		if (slot.confirmedFlushLsn() == null) {
			return null;
		}
		long confirmed = Lsn.parse(slot.confirmedFlushLsn());
		String last = null;
		for (WrittenBeat beat : written) {
			if (Lsn.parse(beat.lsn()) <= confirmed) {
				last = beat.lsn();
			}
		}
		return last;
	}

	private static String diagnose(HeartbeatProperties heartbeat, SlotView slot, Boolean acknowledged,
			Map<Integer, String> walsenders) {
		if (!Boolean.TRUE.equals(slot.active())) {
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

	private static Double secondsToLoss(Sample before, SlotView slot, Instant now) {
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

	private record Sample(long safeWalSize, Instant at) {
	}

}
