package io.slotkeeper.failover;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import io.slotkeeper.fleet.Target;
import io.slotkeeper.problem.ProblemException;
import io.slotkeeper.replication.ReplicationSlot;
import io.slotkeeper.replication.SlotRepository;
import io.slotkeeper.sessions.Lsn;
import io.slotkeeper.sessions.Node;

/**
 * Whether each logical slot of a target's primary would survive a failover to each
 * replica (PostgreSQL 17 failover slots): the replica must synchronize slots
 * ({@code sync_replication_slots}, {@code hot_standby_feedback},
 * {@code primary_slot_name}, {@code dbname} in {@code primary_conninfo}) and hold a
 * synchronized, permanent, valid copy whose confirmed position is close to the primary's.
 */
public final class FailoverChecks {

	/**
	 * How far a replica's copy may be behind the primary's confirmed position and still
	 * count as ready.
	 */
	static final long LAG_BOUND_BYTES = 16L << 20;

	private static final String SETTINGS = "SELECT pg_catalog.current_setting('sync_replication_slots', true),"
			+ " pg_catalog.current_setting('hot_standby_feedback'), pg_catalog.current_setting('primary_slot_name', true),"
			+ " (SELECT setting FROM pg_catalog.pg_settings WHERE name = 'primary_conninfo'), pg_catalog.pg_is_in_recovery()";

	// An entry that is no active physical slot makes the primary hold back every failover
	// slot's consumer; so does
	// an invalidated one, although its standby may stream through it (active).
	// invalidation_reason is PostgreSQL 17's,
	// read through to_jsonb so that the statement parses on every version.
	private static final String STALE_STANDBY_SLOTS = "SELECT pg_catalog.string_agg(trim(s.name), ', ') FROM"
			+ " pg_catalog.unnest(pg_catalog.string_to_array(pg_catalog.current_setting('synchronized_standby_slots', true), ',')) AS s(name)"
			+ " WHERE trim(s.name) <> '' AND NOT EXISTS (SELECT 1 FROM pg_catalog.pg_replication_slots p"
			+ " WHERE p.slot_name = trim(s.name) AND p.slot_type = 'physical' AND p.active"
			+ " AND p.wal_status IS DISTINCT FROM 'lost' AND (pg_catalog.to_jsonb(p) ->> 'invalidation_reason') IS NULL)";

	private FailoverChecks() {
	}

	/**
	 * The readiness of every logical slot, by slot, then by replica, and the orphans
	 * found on the replicas.
	 * @param target the target
	 * @param slots the primary's slots, from this poll
	 * @return a reason per slot and replica, {@code null} for a ready copy, empty when
	 * the target has no replicas; and the replicas' slots that block the synchronization
	 * of a failover slot of the same name
	 */
	public static Report check(Target target, List<ReplicationSlot> slots) {
		Map<String, Map<String, String>> reasons = new LinkedHashMap<>();
		List<Orphan> orphans = new ArrayList<>();
		List<Node> replicas = target.nodes()
			.select(Target.ALL_NODES)
			.stream()
			.filter((node) -> !node.primary())
			.toList();
		if (replicas.isEmpty()) {
			return new Report(reasons, orphans);
		}
		String stale = staleStandbySlots(target.primary());
		if (stale != null) {
			slots.stream()
				.filter((slot) -> slot.logical() && Boolean.TRUE.equals(slot.failover()))
				.forEach((slot) -> reasons.computeIfAbsent(slot.slotName(), (name) -> new LinkedHashMap<>())
					.put(target.primary().name(), "synchronized_standby_slots names " + stale + ", not an active,"
							+ " valid physical slot: consumers of failover slots stall until it is fixed"));
		}
		for (Node replica : replicas) {
			Map<String, String> byslot = onReplica(replica, slots, orphans);
			byslot.forEach((slot, reason) -> reasons.computeIfAbsent(slot, (name) -> new LinkedHashMap<>())
				.put(replica.name(), reason));
		}
		return new Report(reasons, orphans);
	}

	private static String staleStandbySlots(Node primary) {
		try {
			return primary.withConnection((connection) -> {
				try (PreparedStatement statement = connection.prepareStatement(STALE_STANDBY_SLOTS);
						ResultSet stale = statement.executeQuery()) {
					return stale.next() ? stale.getString(1) : null;
				}
			});
		}
		catch (ProblemException ex) {
			return null;
		}
	}

	private static Map<String, String> onReplica(Node replica, List<ReplicationSlot> slots, List<Orphan> orphans) {
		Map<String, String> reasons = new LinkedHashMap<>();
		List<ReplicationSlot> logical = slots.stream().filter(ReplicationSlot::logical).toList();
		String setup;
		Map<String, ReplicationSlot> copies = new LinkedHashMap<>();
		try {
			setup = replica.withConnection((connection) -> {
				String problem = setup(connection);
				if (problem == null) {
					for (ReplicationSlot slot : logical) {
						SlotRepository.find(connection, slot.slotName())
							.ifPresent((copy) -> copies.put(slot.slotName(), copy));
					}
				}
				return problem;
			});
		}
		catch (ProblemException ex) {
			setup = "replica unreachable: " + ex.getMessage();
		}
		for (ReplicationSlot slot : logical) {
			ReplicationSlot copy = copies.get(slot.slotName());
			reasons.put(slot.slotName(), (setup != null) ? setup : copyProblem(slot, copy));
			if (setup == null && orphan(slot, copy)) {
				orphans.add(new Orphan(replica.name(), slot.slotName(), copy.etag()));
			}
		}
		return reasons;
	}

	private static String setup(Connection connection) throws SQLException {
		if (SlotRepository.major(connection) < 17) {
			return "needs PostgreSQL 17";
		}
		try (PreparedStatement statement = connection.prepareStatement(SETTINGS);
				ResultSet settings = statement.executeQuery()) {
			settings.next();
			if (!settings.getBoolean(5)) {
				return "not a standby: pg_is_in_recovery() is false";
			}
			if (!"on".equals(settings.getString(1))) {
				return "sync_replication_slots is off";
			}
			if (!"on".equals(settings.getString(2))) {
				return "hot_standby_feedback is off";
			}
			if (settings.getString(3) == null || settings.getString(3).isBlank()) {
				return "primary_slot_name not set";
			}
			// Only a superuser or pg_read_all_settings sees primary_conninfo: without it,
			// this check is skipped.
			String conninfo = settings.getString(4);
			if (conninfo != null && !conninfo.contains("dbname=")) {
				return "dbname missing from primary_conninfo";
			}
			return null;
		}
	}

	private static String copyProblem(ReplicationSlot primary, ReplicationSlot copy) {
		if (!Boolean.TRUE.equals(primary.failover())) {
			return "failover disabled";
		}
		if (copy == null) {
			return "not synced yet";
		}
		if (orphan(primary, copy)) {
			return "orphan on standby: a slot of the same name that is not synchronized (left from when this server"
					+ " was a primary?) blocks synchronization; drop it there";
		}
		if (Boolean.TRUE.equals(copy.temporary())) {
			return "temporary on standby";
		}
		if (copy.invalidated()) {
			return "invalidated on standby: " + copy.invalidation();
		}
		Long lag = Lsn.distance(copy.confirmedFlushLsn(), primary.confirmedFlushLsn());
		if (lag != null && lag > LAG_BOUND_BYTES) {
			return "standby lags by " + lag + " bytes";
		}
		return null;
	}

	// The slot sync worker refuses to overwrite a slot it did not create, and stops
	// syncing while one is there.
	private static boolean orphan(ReplicationSlot primary, ReplicationSlot copy) {
		return Boolean.TRUE.equals(primary.failover()) && copy != null && !Boolean.TRUE.equals(copy.synced());
	}

	/**
	 * What one check found.
	 *
	 * @param reasons by slot, then by replica, why the copy is not ready; {@code null}
	 * for a ready one
	 * @param orphans the replicas' slots that block synchronization
	 */
	public record Report(Map<String, Map<String, String>> reasons, List<Orphan> orphans) {
	}

	/**
	 * A slot on a replica that has the name of a failover slot on the primary but is not
	 * its synchronized copy.
	 *
	 * @param node the replica's name
	 * @param slot the slot's name
	 * @param etag the replica's slot's entity tag, so that a drop acts only on the slot
	 * that was found
	 */
	public record Orphan(String node, String slot, String etag) {
	}

}
