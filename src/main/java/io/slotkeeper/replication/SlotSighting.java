package io.slotkeeper.replication;

import java.time.Instant;

import io.slotkeeper.sessions.ServerIdentity;

/**
 * What slot-keeper last saw of a configured slot, kept so that a slot that disappears (a
 * failover to a server that never had it) can be described, and created again as it was.
 *
 * @param server the server it was on, {@code address:port}
 * @param timeline that server's timeline, {@code null} when unknown
 * @param plugin its output plugin
 * @param slotType {@code logical} or {@code physical}
 * @param database its database
 * @param twoPhase whether it decoded prepared transactions
 * @param failover whether it was synchronized to standbys
 * @param confirmedFlushLsn the last position its consumer confirmed there
 * @param at when it was seen
 */
public record SlotSighting(String server, Long timeline, String plugin, String slotType, String database,
		Boolean twoPhase, Boolean failover, String confirmedFlushLsn, Instant at) {

	/**
	 * A sighting of a slot on a server.
	 * @param slot the slot
	 * @param server the server that showed it, {@code null} when unknown
	 * @param at when
	 * @return the sighting
	 */
	public static SlotSighting of(ReplicationSlot slot, ServerIdentity server, Instant at) {
		return new SlotSighting((server != null) ? server.address() + ":" + server.port() : null,
				(server != null) ? server.timeline() : null, slot.plugin(), slot.slotType(), slot.database(),
				slot.twoPhase(), slot.failover(), slot.confirmedFlushLsn(), at);
	}

	/**
	 * The slot as last seen, as a listing row: its name and options, no state.
	 * @param name the slot's name
	 * @return the row
	 */
	public ReplicationSlot asRow(String name) {
		return ReplicationSlot.builder()
			.slotName(name)
			.plugin(this.plugin)
			.slotType(this.slotType)
			.database(this.database)
			.twoPhase(this.twoPhase)
			.failover(this.failover)
			.confirmedFlushLsn(this.confirmedFlushLsn)
			.active(false)
			.build();
	}

}
