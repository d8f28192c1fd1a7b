package io.slotkeeper.replication;

import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonUnwrapped;
import io.swagger.v3.oas.annotations.media.Schema;

import io.slotkeeper.connect.ConnectorAudit;
import io.slotkeeper.connect.ConnectorStatus;
import io.slotkeeper.sessions.FailureDescription;

/**
 * A replication slot as the API shows it: where it lives, what the server says of it,
 * what slot-keeper concluded and its connector's status. The server's columns and the
 * conclusions are flattened into one JSON object.
 *
 * @param node where the slot lives: {@code primary} or a replica's name
 * @param slot the slot as the server shows it
 * @param insight what the last poll concluded, {@link SlotInsight#NONE} when nothing
 * @param connector its Kafka Connect connector's status, when one is configured
 * @param missing whether the slot is configured in {@code slots[]} but the primary does
 * not have it
 * @param lastSeen for a missing slot, what slot-keeper last saw of it, {@code null} when
 * it never did
 * @param failover whether the slot would survive a failover to the target's replicas
 * @param orphan whether this replica's slot has the name of a failover slot on the
 * primary but is not its synchronized copy (left from when the replica was a primary): it
 * blocks synchronization until dropped
 * @param nodeError in a listing of every node, the entry of a node that could not be
 * read: why, and no slot
 * @param connectorDiscovered with a connector, whether it was discovered
 * ({@code slotkeeper.connector-discovery}) rather than configured in the slot's policy;
 * {@code null} without one
 * @param connectorSettings with a connector, its configuration as last read and judged
 * against what slot-keeper does to this slot (the connector settings audit); {@code null}
 * without one or before the first read
 */
public record SlotView(String node, @JsonUnwrapped ReplicationSlot slot, @JsonUnwrapped SlotInsight insight,
		ConnectorStatus connector, boolean missing, SlotSighting lastSeen, @JsonUnwrapped FailoverReadiness failover,
		boolean orphan, FailureDescription nodeError, Boolean connectorDiscovered, ConnectorAudit connectorSettings) {

	/**
	 * A slot as read from a node, with nothing concluded yet.
	 * @param node the node's name
	 * @param slot the slot
	 * @return the view
	 */
	public static SlotView of(String node, ReplicationSlot slot) {
		return new SlotView(node, slot, SlotInsight.NONE, null, false, null, FailoverReadiness.NONE, false, null, null,
				null);
	}

	/**
	 * A node that could not be read, in a listing of every node: the others are still
	 * listed.
	 * @param node the node's name
	 * @param failure why it could not be read
	 * @return the entry
	 */
	public static SlotView unreadable(String node, FailureDescription failure) {
		return new SlotView(node, ReplicationSlot.builder().build(), SlotInsight.NONE, null, false, null,
				FailoverReadiness.NONE, false, failure, null, null);
	}

	/**
	 * A configured slot the primary does not have.
	 * @param node the node's name
	 * @param name the slot's name
	 * @param lastSeen what was last seen of it, {@code null} when never
	 * @return the view, with the options last seen
	 */
	public static SlotView missing(String node, String name, SlotSighting lastSeen) {
		ReplicationSlot row = (lastSeen != null) ? lastSeen.asRow(name)
				: ReplicationSlot.builder().slotName(name).build();
		return new SlotView(node, row, SlotInsight.NONE, null, true, lastSeen, FailoverReadiness.NONE, false, null,
				null, null);
	}

	/**
	 * The slot's entity tag, as {@code GET} answers it in {@code ETag}; send it as
	 * {@code If-Match} with a change.
	 * @return the tag, quoted
	 */
	@JsonProperty("etag")
	@Schema(description = "entity tag of the slot as listed; send it as If-Match with a change", example = "\"3f2a…\"")
	public String etag() {
		return this.slot.etag();
	}

	/**
	 * This view with what a poll concluded.
	 * @param concluded the insight
	 * @return a new view
	 */
	public SlotView withInsight(SlotInsight concluded) {
		return new SlotView(this.node, this.slot, concluded, this.connector, this.missing, this.lastSeen, this.failover,
				this.orphan, null, this.connectorDiscovered, this.connectorSettings);
	}

	/**
	 * This view with whether it would survive a failover.
	 * @param readiness the readiness
	 * @return a new view
	 */
	public SlotView withFailover(FailoverReadiness readiness) {
		return new SlotView(this.node, this.slot, this.insight, this.connector, this.missing, this.lastSeen, readiness,
				this.orphan, null, this.connectorDiscovered, this.connectorSettings);
	}

	/**
	 * This view with its connector's status.
	 * @param status the status
	 * @param discovered whether the connector was discovered rather than configured
	 * @param settings its configuration as last judged, {@code null} before the first
	 * read
	 * @return a new view
	 */
	public SlotView withConnector(ConnectorStatus status, boolean discovered, ConnectorAudit settings) {
		return new SlotView(this.node, this.slot, this.insight, status, this.missing, this.lastSeen, this.failover,
				this.orphan, null, discovered, settings);
	}

	/**
	 * This replica's slot marked as an orphan, or not.
	 * @param blocking whether it blocks the synchronization of the primary's failover
	 * slot of its name
	 * @return a new view
	 */
	public SlotView withOrphan(boolean blocking) {
		return new SlotView(this.node, this.slot, this.insight, this.connector, this.missing, this.lastSeen,
				this.failover, blocking, null, this.connectorDiscovered, this.connectorSettings);
	}

}
