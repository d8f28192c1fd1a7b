package io.slotkeeper.resnapshot;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;
import java.util.function.UnaryOperator;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import io.slotkeeper.fleet.Target;
import io.slotkeeper.sessions.FailureDescription;
import io.slotkeeper.sessions.SqlIdentifiers;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Follows a gap's signals to slot-keeper's Debezium extension until it acknowledges each
 * one in the signal table (a row of type {@value #ACK}, id {@code ack:} and the signal's
 * id) or {@link #WAIT} has passed: a signal the extension never ran (not installed where
 * the connector runs, the connector not yet streamed to it) is reported as not
 * acknowledged, never as done. Counted as
 * {@code slotkeeper_gap_signals_total{target,slot,outcome}}. Kept in the memory of the
 * instance that sent them.
 */
final class GapDeliveries {

	static final String ACK = "slotkeeper-ack";

	/**
	 * How long the acknowledgements are waited for.
	 */
	static final Duration WAIT = Duration.ofMinutes(10);

	private static final Logger logger = LoggerFactory.getLogger(GapDeliveries.class);

	private static final JsonMapper JSON = JsonMapper.builder().build();

	// What an acknowledgement may say, at most: it is read from the database.
	private static final int MOST_WORDS = 300;

	private final Map<String, GapDelivery> deliveries = new ConcurrentHashMap<>();

	// Each signal awaiting its acknowledgement as it was sent (type, data), by id: a slot
	// lost again before its consumer read them has them sent again with the next gap's.
	private final Map<String, Map.Entry<String, Map<String, Object>>> awaiting = new ConcurrentHashMap<>();

	private final MeterRegistry registry;

	private final Clock clock;

	GapDeliveries(MeterRegistry registry, Clock clock) {
		this.registry = registry;
		this.clock = clock;
	}

	/**
	 * Follows the signals just committed.
	 * @param target the target's name
	 * @param slot the slot
	 * @param signalTable the signal table
	 * @param signals each signal's type and data
	 * @param ids each signal's id, in the same order
	 * @param at when they were committed
	 * @param notSent per table, what of the gap was not sent and why
	 */
	void sent(String target, String slot, String signalTable, List<Map.Entry<String, Map<String, Object>>> signals,
			List<String> ids, Instant at, Map<String, String> notSent) {
		if (signals.isEmpty() && notSent.isEmpty()) {
			return;
		}
		List<GapDelivery.SignalFate> fates = new ArrayList<>();
		for (int index = 0; index < signals.size(); index++) {
			Map<String, Object> data = signals.get(index).getValue();
			int asked = (data.get("keys") instanceof List<?> keys) ? keys.size()
					: (data.get("rows") instanceof List<?> rows) ? rows.size() : 1;
			fates.add(new GapDelivery.SignalFate(ids.get(index), signals.get(index).getKey(),
					String.valueOf(data.get("data-collection")), asked, GapDelivery.State.AWAITING, 0, null));
		}
		for (int index = 0; index < signals.size(); index++) {
			this.awaiting.put(ids.get(index), signals.get(index));
		}
		GapDelivery before = this.deliveries.put(key(target, slot),
				new GapDelivery(at, signalTable, List.copyOf(fates), fates.isEmpty(), Map.copyOf(notSent)));
		forget(before);
	}

	/**
	 * The signals of a slot's last delivery that no acknowledgement answered, as they
	 * were sent, for a heal of the slot to send again: they were written before the new
	 * slot's start, so a consumer that had not read them when the slot was lost again
	 * never will. The delivery ends with them carried
	 * ({@link GapDelivery.State#CARRIED}), the acknowledged ones as their
	 * acknowledgements say.
	 * @param target the target's name
	 * @param slot the slot
	 * @param reader reads a delivery's acknowledgements by id; throws when it cannot
	 * @return each unanswered signal's type and data, in the order they were sent; empty
	 * when none waits
	 */
	List<Map.Entry<String, Map<String, Object>>> unanswered(String target, String slot,
			Function<GapDelivery, Map<String, JsonNode>> reader) {
		GapDelivery delivery = this.deliveries.get(key(target, slot));
		if (delivery == null || delivery.finished()) {
			return List.of();
		}
		Map<String, JsonNode> acks;
		try {
			acks = reader.apply(delivery);
		}
		catch (RuntimeException ex) {
			// None known to be read: sent again, the extension's actions are idempotent
			// downstream (a delete of a deleted key, an event with its id).
			acks = Map.of();
		}
		List<Map.Entry<String, Map<String, Object>>> unanswered = new ArrayList<>();
		List<GapDelivery.SignalFate> fates = resolved(delivery, acks, (fate) -> {
			Map.Entry<String, Map<String, Object>> sent = this.awaiting.get(fate.id());
			if (sent == null) {
				return unacknowledged(fate, null);
			}
			unanswered.add(sent);
			return new GapDelivery.SignalFate(fate.id(), fate.type(), fate.table(), fate.asked(),
					GapDelivery.State.CARRIED, 0, "the slot was lost again before its connector read it");
		});
		GapDelivery now = new GapDelivery(delivery.sentAt(), delivery.signalTable(), fates, true, delivery.notSent());
		if (!this.deliveries.replace(key(target, slot), delivery, now)) {
			return List.of();
		}
		ended(target, slot, delivery, now);
		return unanswered;
	}

	// Each signal's fate with the acknowledgements read: as it was where it had one
	// already, as its acknowledgement says, or, still awaiting, what the caller makes of
	// it.
	private static List<GapDelivery.SignalFate> resolved(GapDelivery delivery, Map<String, JsonNode> acks,
			UnaryOperator<GapDelivery.SignalFate> unanswered) {
		List<GapDelivery.SignalFate> fates = new ArrayList<>();
		for (GapDelivery.SignalFate fate : delivery.signals()) {
			JsonNode ack = acks.get("ack:" + fate.id());
			fates.add((fate.state() != GapDelivery.State.AWAITING) ? fate
					: (ack != null) ? acknowledged(fate, ack) : unanswered.apply(fate));
		}
		return List.copyOf(fates);
	}

	// A delivery that finished: its signals no longer kept, counted and said.
	private void ended(String target, String slot, GapDelivery before, GapDelivery now) {
		forget(before);
		now.signals().forEach((fate) -> counter(target, slot, fate.state()).increment());
		logger.info("The gap's signals of slot '{}' (target '{}'): {}", slot, target, now.described());
	}

	private void forget(GapDelivery delivery) {
		if (delivery != null) {
			delivery.signals().forEach((fate) -> this.awaiting.remove(fate.id()));
		}
	}

	/**
	 * Whether signals of the target wait for their acknowledgements.
	 * @param target the target's name
	 * @return whether some do
	 */
	boolean waiting(String target) {
		return this.deliveries.entrySet()
			.stream()
			.anyMatch((each) -> each.getKey().startsWith(target + "/") && !each.getValue().finished());
	}

	/**
	 * Reads the acknowledgements of the target's signals that wait for them, on its
	 * primary.
	 * @param target the target
	 * @return the deliveries that finished now (every signal acknowledged, or the wait
	 * over), by slot
	 */
	Map<String, GapDelivery> check(Target target) {
		return check(target.name(),
				(delivery) -> target.primary().withConnection((connection) -> acknowledgements(connection, delivery)));
	}

	/**
	 * Reads the acknowledgements of the target's signals that wait for them.
	 * @param target the target's name
	 * @param reader reads a delivery's acknowledgements by id; throws when it cannot
	 * @return the deliveries that finished now, by slot
	 */
	Map<String, GapDelivery> check(String target, Function<GapDelivery, Map<String, JsonNode>> reader) {
		Map<String, GapDelivery> finished = new LinkedHashMap<>();
		String prefix = target + "/";
		for (Map.Entry<String, GapDelivery> each : this.deliveries.entrySet()) {
			GapDelivery delivery = each.getValue();
			if (!each.getKey().startsWith(prefix) || delivery.finished()) {
				continue;
			}
			String slot = each.getKey().substring(prefix.length());
			String unread = null;
			Map<String, JsonNode> acks = Map.of();
			try {
				acks = reader.apply(delivery);
			}
			catch (RuntimeException ex) {
				unread = "its acknowledgements could not be read in " + delivery.signalTable() + ": "
						+ FailureDescription.messageOf(ex) + " (slot-keeper's role needs SELECT on it)";
			}
			boolean over = !this.clock.instant().isBefore(delivery.sentAt().plus(WAIT));
			String why = unread;
			List<GapDelivery.SignalFate> fates = resolved(delivery, acks,
					(fate) -> over ? unacknowledged(fate, why) : fate);
			boolean done = fates.stream().noneMatch((fate) -> fate.state() == GapDelivery.State.AWAITING);
			GapDelivery now = new GapDelivery(delivery.sentAt(), delivery.signalTable(), fates, done,
					delivery.notSent());
			// A heal's new signals may have taken the slot's place meanwhile: they stand.
			if (!this.deliveries.replace(each.getKey(), delivery, now)) {
				continue;
			}
			if (done) {
				ended(target, slot, delivery, now);
				finished.put(slot, now);
			}
		}
		return finished;
	}

	/**
	 * A delivery's acknowledgements in its signal table.
	 * @param connection a session on the primary
	 * @param delivery the delivery
	 * @return each acknowledgement's data by its id; a null node for one that is not JSON
	 * @throws SQLException when the table cannot be read
	 */
	static Map<String, JsonNode> acknowledgements(Connection connection, GapDelivery delivery) throws SQLException {
		Map<String, JsonNode> acks = new HashMap<>();
		try (PreparedStatement statement = connection.prepareStatement("SELECT id, data FROM "
				+ SqlIdentifiers.quoteQualified(delivery.signalTable()) + " WHERE type = ? AND id = ANY (?::text[])")) {
			statement.setString(1, ACK);
			statement.setArray(2, connection.createArrayOf("text",
					delivery.signals().stream().map((fate) -> "ack:" + fate.id()).toArray()));
			try (ResultSet result = statement.executeQuery()) {
				while (result.next()) {
					try {
						acks.put(result.getString(1), JSON.readTree(String.valueOf(result.getString(2))));
					}
					catch (JacksonException ex) {
						acks.put(result.getString(1), JSON.nullNode());
					}
				}
			}
		}
		return acks;
	}

	private static GapDelivery.SignalFate acknowledged(GapDelivery.SignalFate fate, JsonNode ack) {
		int emitted = ack.path("emitted").asInt(0);
		String refused = ack.path("refused").isString() ? ack.path("refused").asString() : null;
		if (!ack.isObject()) {
			refused = "its acknowledgement could not be read";
		}
		else if (refused == null && emitted < fate.asked()) {
			refused = "the extension emitted " + emitted + " of " + fate.asked();
		}
		GapDelivery.State state = (refused == null) ? GapDelivery.State.DELIVERED : GapDelivery.State.REFUSED;
		return new GapDelivery.SignalFate(fate.id(), fate.type(), fate.table(), fate.asked(), state, emitted,
				(refused == null) ? null
						: "refused by the extension: " + refused.substring(0, Math.min(refused.length(), MOST_WORDS)));
	}

	private static GapDelivery.SignalFate unacknowledged(GapDelivery.SignalFate fate, String unread) {
		return new GapDelivery.SignalFate(fate.id(), fate.type(), fate.table(), fate.asked(),
				GapDelivery.State.UNACKNOWLEDGED, 0,
				(unread != null) ? unread
						: "no acknowledgement within " + WAIT.toMinutes() + "m: the extension did not run it (not"
								+ " installed where the connector runs, or the connector has not streamed to it yet)");
	}

	/**
	 * A slot's last delivery, finished or not.
	 * @param target the target's name
	 * @param slot the slot
	 * @return it, empty when none was sent by this instance
	 */
	Optional<GapDelivery> of(String target, String slot) {
		return Optional.ofNullable(this.deliveries.get(key(target, slot)));
	}

	/**
	 * The last delivery of each of a target's slots, finished or not.
	 * @param target the target's name
	 * @return by slot
	 */
	Map<String, GapDelivery> of(String target) {
		Map<String, GapDelivery> found = new LinkedHashMap<>();
		this.deliveries.forEach((key, delivery) -> {
			if (key.startsWith(target + "/")) {
				found.put(key.substring(target.length() + 1), delivery);
			}
		});
		return found;
	}

	/**
	 * Exports a slot's counters at 0 before its first delivery.
	 * @param target the target's name
	 * @param slot the slot
	 */
	void prime(String target, String slot) {
		for (GapDelivery.State state : GapDelivery.State.values()) {
			if (state != GapDelivery.State.AWAITING) {
				counter(target, slot, state);
			}
		}
	}

	private Counter counter(String target, String slot, GapDelivery.State state) {
		return Counter.builder("slotkeeper.gap.signals")
			.description("Signals of a gap's deletes, truncates and outbox events to slot-keeper's Debezium extension,"
					+ " by what its acknowledgement said: delivered, refused, or none came (unacknowledged), or sent"
					+ " again with the next gap's, the slot lost before its consumer read them (carried)")
			.tags("target", target, "slot", slot, "outcome", state.name().toLowerCase(java.util.Locale.ROOT))
			.register(this.registry);
	}

	private static String key(String target, String slot) {
		return target + "/" + slot;
	}

}
