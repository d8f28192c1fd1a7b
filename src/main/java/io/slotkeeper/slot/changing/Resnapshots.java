package io.slotkeeper.slot.changing;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import tools.jackson.databind.json.JsonMapper;

import io.slotkeeper.config.ConnectorProperties;
import io.slotkeeper.config.ResnapshotProperties;
import io.slotkeeper.connect.ConnectorLifecycle;
import io.slotkeeper.fleet.SqlIdentifiers;
import io.slotkeeper.fleet.TableWrites;
import io.slotkeeper.fleet.Target;
import io.slotkeeper.fleet.TargetProblems;
import io.slotkeeper.problem.ProblemException;
import io.slotkeeper.slot.reading.SlotProblems;

/**
 * Asks Debezium to read again what a recreate skipped: one {@code execute-snapshot} row in the connector's signal
 * table on the target's primary, with the tables to snapshot. Table and tables come from the slot's
 * {@code resnapshot} settings, else from the connector's configuration ({@code signal.data.collection},
 * {@code table.include.list}, plain names only); the signal table is a checked, quoted identifier and the row's
 * values are bound. Counted as {@code slotkeeper_slot_resnapshots_total{target,slot,outcome}}.
 */
public final class Resnapshots {

	private static final JsonMapper JSON = JsonMapper.builder().build();

	private final ConnectorLifecycle lifecycle;

	private final MeterRegistry registry;

	private final ChangedTables changed = new ChangedTables();

	Resnapshots(ConnectorLifecycle lifecycle, MeterRegistry registry) {
		this.lifecycle = lifecycle;
		this.registry = registry;
	}

	/**
	 * What a re-snapshot of a slot's tables would send.
	 * @param target the target
	 * @param slot the slot
	 * @return the signal
	 * @throws ProblemException when it could not be sent: what is missing, or the role's privilege
	 */
	public Signal plan(Target target, String slot) {
		ResnapshotProperties settings = settings(target, slot);
		Map<String, Object> config = connectorConfig(target, slot, settings);
		String table = (settings.signalTable() != null) ? settings.signalTable() : (String) config.get("signal.data.collection");
		if (table == null || !table.matches(ResnapshotProperties.TABLE)) {
			throw unsupported(target, slot, (table == null) ? "no signal table: set resnapshot.signal-table or the"
					+ " connector's signal.data.collection" : "the signal table '" + table + "' is not a plain schema.table");
		}
		List<String> collections = (settings.collections() != null) ? settings.collections()
				: included((String) config.get("table.include.list"), target, slot);
		collections = collections.stream().filter((collection) -> !collection.equals(table)).toList();
		if (collections.isEmpty()) {
			throw unsupported(target, slot, "no tables to snapshot: set resnapshot.collections or the connector's"
					+ " table.include.list");
		}
		return new Signal(table, collections, settings.type().name().toLowerCase());
	}

	/**
	 * Sends the signal for every table, after checking the role may insert into the signal table.
	 * @param target the target
	 * @param slot the slot
	 * @return what was sent
	 * @throws ProblemException when it could not be sent
	 */
	public Resnapshot send(Target target, String slot) {
		return send(target, slot, null);
	}

	// With a pin, only the tables whose counters moved since it; without, every table.
	private Resnapshot send(Target target, String slot, ChangedTables.Pin pin) {
		Signal signal = plan(target, slot);
		ResnapshotProperties settings = settings(target, slot);
		Resnapshot sent = target.primary().withConnection((connection) -> {
			mayInsert(connection, target, slot, signal.table());
			if (pin == null) {
				return insert(connection, signal, signal.collections(), null, Map.of());
			}
			TableWrites now = TableWrites.read(connection, signal.collections());
			ChangedTables.Choice choice = ChangedTables.choose(pin, now, signal.collections(), settings);
			this.changed.recheckLater(target, slot, pin, now, choice.answer(), settings.recheckAfter());
			if (choice.read().isEmpty()) {
				return new Resnapshot(null, List.of(), null, "no table of the slot was written to while it was lost,"
						+ " so none is read again", choice.answer());
			}
			return insert(connection, signal, choice.read(), choice.answer(), choice.answer().conditions());
		});
		count(target, slot, (sent.signalId() != null) ? "sent" : "skipped");
		countTables(target, slot, sent);
		return sent;
	}

	/**
	 * Reads the tables a signal after a recreate skipped once more, when due, and sends a second signal for those
	 * whose counters moved since (commits the counters showed late, or written since).
	 * @param target the target
	 * @return the second signals, by slot; empty when none was due or none moved
	 */
	public Map<String, Resnapshot> recheck(Target target) {
		Map<String, Resnapshot> sent = new LinkedHashMap<>();
		for (ChangedTables.Recheck recheck : this.changed.due(target)) {
			try {
				Signal signal = plan(target, recheck.slot());
				Resnapshot second = target.primary().withConnection((connection) -> {
					TableWrites now = TableWrites.read(connection, recheck.tables());
					List<String> moved = recheck.tables().stream()
						.filter((table) -> now.movedSince(recheck.sent(), table))
						.toList();
					if (moved.isEmpty()) {
						return null;
					}
					mayInsert(connection, target, recheck.slot(), signal.table());
					return insert(connection, signal, moved, new TableChoice("tables skipped by the signal after the"
							+ " recreate whose write counters moved since " + recheck.sent().at() + ": commits the"
							+ " server counted late, or written since", List.of(), Map.of()), Map.of());
				});
				if (second != null) {
					count(target, recheck.slot(), "sent");
					countTables(target, recheck.slot(), second);
					sent.put(recheck.slot(), second);
				}
			}
			catch (ProblemException ex) {
				count(target, recheck.slot(), ex.kind().refusal() ? "skipped" : "failed");
				sent.put(recheck.slot(), new Resnapshot(null, recheck.tables(), null, ex.getMessage(), null));
			}
		}
		return sent;
	}

	/**
	 * Whether a recheck of skipped tables waits for the target.
	 * @param target the target
	 * @return whether one waits
	 */
	public boolean rechecksWaiting(Target target) {
		return this.changed.waiting(target);
	}

	/**
	 * At a recreate on the primary: keeps what the re-snapshot of only the changed tables measures from.
	 * @param target the target
	 * @param slot the slot
	 * @param previousConfirmedFlushLsn the lost slot's last confirmed position
	 */
	void pin(Target target, String slot, String previousConfirmedFlushLsn) {
		this.changed.pin(target, slot, previousConfirmedFlushLsn);
	}

	private static void mayInsert(Connection connection, Target target, String slot, String table)
			throws SQLException {
		try (PreparedStatement check = connection.prepareStatement("SELECT t IS NOT NULL, t IS NOT NULL AND"
				+ " pg_catalog.has_table_privilege(t, 'INSERT') FROM (SELECT pg_catalog.to_regclass(?) AS t) AS signal_table")) {
			check.setString(1, table);
			try (ResultSet result = check.executeQuery()) {
				result.next();
				if (!result.getBoolean(1)) {
					throw unsupported(target, slot, "the signal table " + table + " does not exist");
				}
				if (!result.getBoolean(2)) {
					throw TargetProblems.insufficientPrivilege(target.primary(), "permission denied to insert into the"
							+ " signal table " + table + ": GRANT INSERT ON " + table + " TO the role"
							+ " slot-keeper logs in as").with("slot", slot).with("sqlState", "42501");
				}
			}
		}
	}

	private static Resnapshot insert(Connection connection, Signal signal, List<String> tables, TableChoice choice,
			Map<String, String> conditions) throws SQLException {
		String id = UUID.randomUUID().toString();
		Map<String, Object> data = new LinkedHashMap<>();
		data.put("data-collections", tables);
		data.put("type", signal.type());
		if (!conditions.isEmpty()) {
			data.put("additional-conditions", conditions.entrySet().stream()
				.map((condition) -> Map.of("data-collection", condition.getKey(), "filter", condition.getValue()))
				.toList());
		}
		try (PreparedStatement insert = connection.prepareStatement("INSERT INTO "
				+ SqlIdentifiers.quoteQualified(signal.table()) + " (id, type, data) VALUES (?, 'execute-snapshot', ?)")) {
			insert.setString(1, id);
			insert.setString(2, JSON.writeValueAsString(data));
			insert.executeUpdate();
		}
		return new Resnapshot(id, tables, Instant.now(), null, choice);
	}

	/**
	 * After a recreate: sends the signal when the slot's settings ask for one and its connector runs again.
	 * @param target the target
	 * @param slot the slot
	 * @param connectorRunning whether its connector runs again ({@code true} when it has none)
	 * @return what was sent, or why not; {@code null} when none is asked for
	 */
	Resnapshot afterRecreate(Target target, String slot, boolean connectorRunning) {
		if (!asked(target, slot)) {
			return null;
		}
		if (!connectorRunning) {
			count(target, slot, "skipped");
			return new Resnapshot(null, null, null, "the connector does not run again: no signal was sent; send one"
					+ " with POST …/resnapshot once it runs", null);
		}
		try {
			ChangedTables.Pin pin = this.changed.take(target, slot);
			// Not recreated by this instance, or not since it started: nothing to measure from, so every table.
			return send(target, slot, (pin == null && ChangedTables.asked(target, slot))
					? new ChangedTables.Pin(null, Instant.now()) : pin);
		}
		catch (ProblemException ex) {
			count(target, slot, ex.kind().refusal() ? "skipped" : "failed");
			return new Resnapshot(null, null, null, ex.getMessage(), null);
		}
	}

	/**
	 * After a recreate whose connector handover waits for Kafka Connect: nothing is sent yet.
	 * @param target the target
	 * @param slot the slot
	 * @return why not yet, {@code null} when none is asked for
	 */
	Resnapshot deferred(Target target, String slot) {
		return asked(target, slot) ? new Resnapshot(null, null, null, "deferred: sent once Kafka Connect answers and"
				+ " the connector's handover is complete", null) : null;
	}

	private static ResnapshotProperties settings(Target target, String slot) {
		return target.policy(slot).map((policy) -> policy.resnapshot())
			.orElse(ResnapshotProperties.of(ResnapshotProperties.Mode.NONE));
	}

	private static boolean asked(Target target, String slot) {
		return target.policy(slot)
			.map((policy) -> policy.resnapshot().mode() == ResnapshotProperties.Mode.DEBEZIUM_SIGNAL).orElse(false);
	}

	private Map<String, Object> connectorConfig(Target target, String slot, ResnapshotProperties settings) {
		if (settings.signalTable() != null && settings.collections() != null) {
			return Map.of();
		}
		ConnectorProperties connector = target.connectorOf(slot).orElse(null);
		if (connector == null) {
			return Map.of();
		}
		ConnectorLifecycle.Answer answer = this.lifecycle.config(connector);
		if (!answer.ok()) {
			throw unsupported(target, slot, "the connector's configuration could not be read: " + answer.error());
		}
		return answer.object();
	}

	private static List<String> included(String list, Target target, String slot) {
		if (list == null || list.isBlank()) {
			return List.of();
		}
		List<String> tables = Arrays.stream(list.split(",")).map(String::strip).toList();
		List<String> patterns = tables.stream().filter((table) -> !table.matches(ResnapshotProperties.TABLE)).toList();
		if (!patterns.isEmpty()) {
			throw unsupported(target, slot, "table.include.list has patterns or names that are not plain schema.table ("
					+ String.join(", ", patterns) + "): list the tables in resnapshot.collections");
		}
		return tables;
	}

	private static ProblemException unsupported(Target target, String slot, String detail) {
		return SlotProblems.unsupported(target.primary(), slot, "No re-snapshot signal: " + detail + ".");
	}

	private void count(Target target, String slot, String outcome) {
		Counter.builder("slotkeeper.slot.resnapshots")
			.description("Re-snapshot signals slot-keeper sent (sent), could not send (skipped) or failed to send")
			.tags("target", target.name(), "slot", slot, "outcome", outcome)
			.register(this.registry)
			.increment();
	}

	// How many tables re-snapshots read, and how many they left out as unchanged.
	private void countTables(Target target, String slot, Resnapshot sent) {
		int skipped = (sent.tables() != null) ? sent.tables().skipped().size() : 0;
		int read = (sent.signalId() != null) ? sent.collections().size() : 0;
		for (Map.Entry<String, Integer> decision : Map.of("read", read, "skipped", skipped).entrySet()) {
			Counter.builder("slotkeeper.slot.resnapshot.tables")
				.description("Tables re-snapshots asked Debezium to read again (read) or left out as unchanged"
						+ " while the slot was lost (skipped)")
				.tags("target", target.name(), "slot", slot, "decision", decision.getKey())
				.register(this.registry)
				.increment(decision.getValue());
		}
	}

	/**
	 * What a re-snapshot would insert.
	 * @param table the signal table
	 * @param collections the tables to snapshot
	 * @param type {@code incremental} or {@code blocking}
	 */
	public record Signal(String table, List<String> collections, String type) {
	}

	/**
	 * A re-snapshot sent, or why not.
	 * @param signalId the signal row's id, {@code null} when none was sent
	 * @param collections the tables asked for
	 * @param sentAt when it was inserted
	 * @param notSentBecause why none was sent, {@code null} when one was
	 * @param tables how the tables were chosen with {@code tables: changed}: which were left out and why;
	 * {@code null} when every table was asked for
	 */
	public record Resnapshot(String signalId, List<String> collections, Instant sentAt, String notSentBecause,
			TableChoice tables) {
	}

	/**
	 * How the tables of a re-snapshot were chosen, in its answer.
	 * @param why which tables are read, and why
	 * @param skipped the tables left out, each with the reason
	 * @param conditions for the tables narrowed to the lost window, the filter Debezium adds to its reads
	 */
	public record TableChoice(String why, List<SkippedTable> skipped, Map<String, String> conditions) {
	}

	/**
	 * A table a re-snapshot left out.
	 * @param table {@code schema.table}
	 * @param why why
	 */
	public record SkippedTable(String table, String why) {
	}

}
