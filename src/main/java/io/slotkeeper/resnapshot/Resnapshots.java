package io.slotkeeper.resnapshot;

import java.sql.Connection;
import java.sql.SQLException;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

import io.micrometer.core.instrument.MeterRegistry;
import tools.jackson.databind.JsonNode;

import io.slotkeeper.config.ResnapshotProperties;
import io.slotkeeper.connect.ConnectorLifecycle;
import io.slotkeeper.connect.ExtensionCheck;
import io.slotkeeper.fleet.Target;
import io.slotkeeper.gap.ClosedGaps;
import io.slotkeeper.gap.Gap;
import io.slotkeeper.lineage.TableWrites;
import io.slotkeeper.problem.ProblemException;

/**
 * Asks Debezium to read again what a recreate skipped: one {@code execute-snapshot} row
 * in the connector's signal table on the target's primary, with the tables to snapshot
 * ({@link SignalPlans}, written by {@link SignalRows}). With
 * {@code resnapshot.tables: changed}, after a recreate only the tables written to while
 * the slot was lost ({@link ChangedTables}), and a second signal for skipped ones whose
 * counters moved by the recheck. Counted by {@link ResnapshotMeters}.
 */
public final class Resnapshots {

	private final SignalPlans plans;

	private final ConnectorLifecycle lifecycle;

	private final ResnapshotMeters meters;

	private final ChangedTables changed;

	private final Clock clock;

	private final Map<String, Gap> gaps = new ConcurrentHashMap<>();

	private final ClosedGaps closedGaps;

	private final GapDeliveries deliveries;

	/**
	 * @param lifecycle the connectors' seam, for their configuration and signals
	 * @param closedGaps the gaps kept beyond the instance that closed them
	 * @param registry where re-snapshots are counted
	 * @param clock when signals are sent and rechecks due
	 */
	public Resnapshots(ConnectorLifecycle lifecycle, ClosedGaps closedGaps, MeterRegistry registry, Clock clock) {
		this.lifecycle = lifecycle;
		this.closedGaps = closedGaps;
		this.changed = new ChangedTables(clock);
		this.clock = clock;
		this.plans = new SignalPlans(lifecycle);
		this.meters = new ResnapshotMeters(registry);
		this.deliveries = new GapDeliveries(registry, clock);
	}

	/**
	 * What a re-snapshot of a slot's tables would send.
	 * @param target the target
	 * @param slot the slot
	 * @return the signal
	 * @throws ProblemException when it could not be sent: what is missing, or the role's
	 * privilege
	 */
	public Signal plan(Target target, String slot) {
		return this.plans.plan(target, slot);
	}

	/**
	 * Sends the signal for every table, after checking the role may insert into the
	 * signal table.
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
		ResnapshotProperties settings = SignalPlans.settings(target, slot);
		Instant at = this.clock.instant();
		Resnapshot sent = target.primary().withConnection((connection) -> {
			SignalRows.mayInsert(connection, target, slot, signal.table());
			if (pin == null) {
				Resnapshot every = SignalRows.insert(connection, target, slot, signal, signal.collections(), null,
						Map.of(), at);
				return SignalRows.remember(connection, target, slot, every, List.of(), at);
			}
			TableWrites now = TableWrites.read(connection, signal.collections());
			ChangedTables.Choice choice = ChangedTables.choose(pin, now, signal.collections(), settings,
					UpdateColumns.types(connection, settings, signal.collections()));
			this.changed.recheckLater(target, slot, pin, now, choice.answer(), settings.recheckAfter());
			List<String> skipped = choice.answer().skipped().stream().map(SkippedTable::table).toList();
			Resnapshot decided = choice.read().isEmpty()
					? new Resnapshot(null, List.of(), null,
							"no table of the" + " slot was written to while it was lost, so none is read again",
							choice.answer())
					: SignalRows.insert(connection, target, slot, signal, choice.read(), choice.answer(),
							choice.answer().conditions(), at);
			return SignalRows.remember(connection, target, slot, decided, skipped, at);
		});
		this.meters.count(target, slot, (sent.signalId() != null) ? "sent" : "none-changed");
		this.meters.countTables(target, slot, sent);
		return sent;
	}

	/**
	 * Reads the tables a signal after a recreate skipped once more, when due, and sends a
	 * second signal for those whose counters moved since (commits the counters showed
	 * late, or written since).
	 * @param target the target
	 * @return the second signals, by slot; empty when none was due or none moved
	 */
	public Map<String, Resnapshot> recheck(Target target) {
		Map<String, Resnapshot> sent = new LinkedHashMap<>();
		for (ChangedTables.Recheck recheck : this.changed.due(target)) {
			try {
				Signal signal = plan(target, recheck.slot());
				Resnapshot second = target.primary()
					.withConnection((connection) -> SecondSignals.send(connection, target, recheck, signal,
							this.clock.instant()));
				if (second != null) {
					this.meters.count(target, recheck.slot(), "sent");
					this.meters.countTables(target, recheck.slot(), second);
					sent.put(recheck.slot(), second);
				}
			}
			catch (ProblemException ex) {
				this.meters.count(target, recheck.slot(), ex.kind().refusal() ? "skipped" : "failed");
				sent.put(recheck.slot(), new Resnapshot(null, recheck.tables(), null, ex.getMessage(), null));
			}
		}
		return sent;
	}

	/**
	 * Exports the re-snapshot counters of every slot of the target at 0 until one is sent
	 * (a slot that asks for no signal keeps them at 0: a panel reads 0, not "no data"),
	 * and the gap delivery's of those that signal deletes.
	 * @param target the target
	 */
	public void prime(Target target) {
		target.slots().policies().forEach((policy) -> {
			this.meters.prime(target, policy.name());
			if (policy.resnapshot().mode() == ResnapshotProperties.Mode.DEBEZIUM_SIGNAL
					&& policy.resnapshot().deletes() == ResnapshotProperties.Deletes.SIGNAL) {
				this.deliveries.prime(target.name(), policy.name());
			}
		});
	}

	/**
	 * Whether a recheck of skipped tables waits for the target.
	 * @param target the target
	 * @return whether one waits
	 */
	public boolean rechecksWaiting(Target target) {
		return this.changed.waiting(target) || this.deliveries.waiting(target.name());
	}

	/**
	 * Reads the extension's acknowledgements of the target's gap signals that wait for
	 * them.
	 * @param target the target
	 * @return the deliveries that finished now, by slot
	 */
	public Map<String, GapDelivery> checkDeliveries(Target target) {
		return this.deliveries.check(target);
	}

	/**
	 * What became of a slot's last gap signals sent by this instance.
	 * @param target the target's name
	 * @param slot the slot
	 * @return the delivery, empty when none was sent
	 */
	public Optional<GapDelivery> delivery(String target, String slot) {
		return this.deliveries.of(target, slot);
	}

	/**
	 * What became of the last gap signals of each of a target's slots, in words.
	 * @param target the target's name
	 * @return by slot
	 */
	public Map<String, String> deliveries(String target) {
		Map<String, String> said = new LinkedHashMap<>();
		this.deliveries.of(target).forEach((slot, delivery) -> said.put(slot, delivery.summary()));
		return said;
	}

	/**
	 * At a recreate on the primary: keeps what the re-snapshot of only the changed tables
	 * measures from.
	 * @param target the target
	 * @param slot the slot
	 * @param previousConfirmedFlushLsn the lost slot's last confirmed position
	 * @param gap what the slot's gap journal read, {@code null} when none was kept: a
	 * complete one makes the re-snapshot read exactly the keys it changed
	 */
	public void pin(Target target, String slot, String previousConfirmedFlushLsn, Gap gap) {
		this.changed.pin(target, slot, previousConfirmedFlushLsn);
		if (gap != null && gap.incomplete() == null) {
			this.gaps.put(target.name() + "/" + slot, gap);
		}
		else {
			this.gaps.remove(target.name() + "/" + slot);
		}
	}

	/**
	 * After a recreate: sends the signal when the slot's settings ask for one and its
	 * connector runs again.
	 * @param target the target
	 * @param slot the slot
	 * @param newStart where the new slot starts, when completing a handover kept in the
	 * server: the gap the recreate closed there is read from the store when this instance
	 * did not close it (another did, and ended); {@code null} after this instance's own
	 * recreate
	 * @param connectorRunning whether its connector runs again ({@code true} when it has
	 * none)
	 * @return what was sent, or why not; {@code null} when none is asked for
	 */
	public Resnapshot afterRecreate(Target target, String slot, Long newStart, boolean connectorRunning) {
		if (!asked(target, slot)) {
			this.closedGaps.forget(target, slot);
			return null;
		}
		if (!connectorRunning) {
			this.meters.count(target, slot, "skipped");
			return new Resnapshot(null, null, null, "the connector does not run again: no signal was sent; send one"
					+ " with POST …/resnapshot once it runs", null);
		}
		try {
			ChangedTables.Pin pin = this.changed.take(target, slot);
			Gap gap = this.gaps.remove(target.name() + "/" + slot);
			if (gap == null && newStart != null) {
				gap = this.closedGaps.kept(target, slot, newStart).orElse(null);
			}
			if (gap != null) {
				return sendExact(target, slot, gap);
			}
			// Not recreated by this instance, or not since it started, and no gap kept:
			// nothing to measure from, so every table.
			return send(target, slot, (pin == null && ChangedTables.asked(target, slot))
					? new ChangedTables.Pin(null, this.clock.instant()) : pin);
		}
		catch (ProblemException ex) {
			this.meters.count(target, slot, ex.kind().refusal() ? "skipped" : "failed");
			return new Resnapshot(null, null, null, ex.getMessage(), null);
		}
		finally {
			this.closedGaps.forget(target, slot);
		}
	}

	private Resnapshot sendExact(Target target, String slot, Gap gap) {
		Signal signal = plan(target, slot);
		Instant at = this.clock.instant();
		ExtensionCheck extension = target.slots()
			.policy(slot)
			.filter((policy) -> policy.resnapshot().deletes() == ResnapshotProperties.Deletes.SIGNAL)
			.map((policy) -> (policy.connector() != null) ? this.lifecycle.extension(policy.connector())
					: ExtensionCheck.unknown("the slot has no connector configured"))
			.orElse(null);
		Resnapshot sent = target.primary().withConnection((connection) -> {
			SignalRows.mayInsert(connection, target, slot, signal.table());
			Integer dataLength = GapReads.dataLength(connection, signal.table());
			GapReads.Chosen chosen = GapReads.choose(connection, gap, signal.collections(), dataLength);
			List<String> outboxes = outboxes(target, slot);
			GapSignals.Planned planned = (extension == null)
					? new GapSignals.Planned(List.of(), Map.of(), Map.of(), null, Map.of())
					: extension.absent()
							? GapSignals.listed(gap, signal.collections(), outboxes,
									"slot-keeper's Debezium extension is not installed (" + extension.detail() + ")")
							: GapSignals.plan(connection, gap, signal.collections(), outboxes, dataLength)
								.after(connection, this.deliveries.unanswered(target.name(), slot,
										(delivery) -> acknowledged(connection, delivery)));
			List<String> skipped = chosen.answer().skipped().stream().map(SkippedTable::table).toList();
			List<Map<String, Object>> reads = chosen.read().isEmpty() ? List.of() : signals(signal, chosen);
			List<String> ids = (reads.isEmpty() && planned.signals().isEmpty()) ? List.of()
					: SignalRows.insert(connection, target, slot, signal, reads, planned.signals());
			this.deliveries.sent(target.name(), slot, signal.table(), planned.signals(),
					ids.subList(Math.min(ids.size(), reads.size()), ids.size()), at, planned.notSent());
			Map<String, String> deleted = (planned.described() != null)
					? readAgain(connection, target, slot, signal, gap, planned, extension, at) : null;
			Resnapshot decided = chosen.read().isEmpty()
					? new Resnapshot(null, List.of(), null,
							"nothing a read brings back changed in the gap (from the gap journal), so no table is"
									+ " read again",
							chosen.answer(), deleted)
					: new Resnapshot(ids.get(0), chosen.read(), at, null, chosen.answer(), deleted);
			return SignalRows.remember(connection, target, slot, decided, skipped, at);
		});
		this.meters.count(target, slot, (sent.signalId() != null) ? "sent" : "none-changed");
		this.meters.countTables(target, slot, sent);
		return sent;
	}

	private static Map<String, JsonNode> acknowledged(Connection connection, GapDelivery delivery) {
		try {
			return GapDeliveries.acknowledgements(connection, delivery);
		}
		catch (SQLException ex) {
			throw new IllegalStateException(ex);
		}
	}

	// A key deleted in the gap that was inserted again after the check and before the
	// signals' commit would end deleted downstream: the keys signalled are checked once
	// more, and those that exist are read again, after the deletes.
	private static Map<String, String> readAgain(Connection connection, Target target, String slot, Signal signal,
			Gap gap, GapSignals.Planned planned, ExtensionCheck extension, Instant at) throws SQLException {
		Map<String, String> described = new LinkedHashMap<>(planned.described());
		if (extension.installed() == null) {
			planned.signalled()
				.keySet()
				.forEach((table) -> described.merge(table, " (whether slot-keeper's Debezium extension is installed"
						+ " could not be told: " + extension.detail() + ")", String::concat));
		}
		Map<String, String> back = GapSignals.cameBack(connection, planned);
		if (!back.isEmpty()) {
			SignalRows.insert(connection, target, slot, signal, List.copyOf(back.keySet()), null, back, at);
			back.keySet()
				.forEach((table) -> described.merge(table,
						"; keys inserted again while the deletes were signalled are" + " read again after them",
						String::concat));
		}
		return described;
	}

	// The first signal reads every table but those read in slices, which follow, a slice
	// each.
	private static List<Map<String, Object>> signals(Signal signal, GapReads.Chosen chosen) {
		List<Map<String, Object>> signals = new ArrayList<>();
		if (!chosen.first().isEmpty()) {
			signals.add(SignalRows.data(signal, chosen.first(), chosen.filters()));
		}
		chosen.more().forEach((slice) -> signals.add(SignalRows.data(signal, List.copyOf(slice.keySet()), slice)));
		return signals;
	}

	/**
	 * After a recreate whose connector handover waits for Kafka Connect: nothing is sent
	 * yet.
	 * @param target the target
	 * @param slot the slot
	 * @return why not yet, {@code null} when none is asked for
	 */
	public Resnapshot deferred(Target target, String slot) {
		return asked(target, slot)
				? new Resnapshot(null, null, null,
						"deferred: sent once Kafka Connect answers and" + " the connector's handover is complete", null)
				: null;
	}

	private static List<String> outboxes(Target target, String slot) {
		return target.slots().policy(slot).map((policy) -> policy.resnapshot().outboxes()).orElse(List.of());
	}

	private static boolean asked(Target target, String slot) {
		return target.slots()
			.policy(slot)
			.map((policy) -> policy.resnapshot().mode() == ResnapshotProperties.Mode.DEBEZIUM_SIGNAL)
			.orElse(false);
	}

}
