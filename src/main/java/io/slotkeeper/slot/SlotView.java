package io.slotkeeper.slot;

import java.time.OffsetDateTime;

import io.slotkeeper.connect.ConnectorStatus;

/**
 * A replication slot as {@code pg_replication_slots} shows it, plus what slot-keeper computes. A column the server's
 * version lacks is {@code null}.
 *
 * @param node where the slot lives: {@code primary} or a replica's name
 * @param slotName the slot's name
 * @param plugin its output plugin; {@code null} for a physical slot
 * @param slotType {@code logical} or {@code physical}
 * @param database its database; {@code null} for a physical slot
 * @param temporary whether it disappears with its session
 * @param active whether a consumer is streaming from it
 * @param activePid the consumer's backend process, when active
 * @param xmin the oldest transaction it holds back
 * @param catalogXmin the oldest transaction it holds back for the catalogs
 * @param restartLsn the oldest WAL it needs; {@code null} once lost
 * @param confirmedFlushLsn what its consumer confirmed (logical slots)
 * @param walStatus {@code reserved}, {@code extended}, {@code unreserved} or {@code lost} (PG 13+)
 * @param safeWalSizeBytes WAL that can still be written before it is at risk; {@code null} when unlimited (PG 13+)
 * @param twoPhase whether it decodes prepared transactions (PG 14+)
 * @param conflicting whether it was invalidated by a recovery conflict (PG 16+)
 * @param inactiveSince since when no consumer streams from it (PG 17+)
 * @param invalidationReason why it was invalidated, for example {@code wal_removed} (PG 17+)
 * @param failover whether it is synchronized to standbys (PG 17+)
 * @param synced whether it was synchronized from the primary (PG 17+)
 * @param retainedWalBytes WAL it pins: current LSN minus {@code restartLsn}
 * @param confirmedFlushLagBytes current LSN minus {@code confirmedFlushLsn}
 * @param heartbeatAcknowledged whether the consumer's confirmed position passed the heartbeat written
 * {@code ack-intervals} intervals ago; {@code null} when unknown (another database, no heartbeat yet, standby)
 * @param lastAcknowledgedLsn the latest heartbeat LSN the consumer confirmed
 * @param diagnosis why the slot is (not) moving: {@code ok}, {@code inactive}, {@code consumer not confirming}, or the
 * message-mode hint; {@code null} when unknown
 * @param secondsToLoss estimated seconds until the slot is lost, from how fast its {@code safe_wal_size} shrank
 * over the last minute of polls; {@code null} when unlimited or not shrinking
 * @param connector its Kafka Connect connector's status, when one is configured
 */
public record SlotView(String node, String slotName, String plugin, String slotType, String database, Boolean temporary,
		Boolean active, Integer activePid, String xmin, String catalogXmin, String restartLsn, String confirmedFlushLsn,
		String walStatus, Long safeWalSizeBytes, Boolean twoPhase, Boolean conflicting, OffsetDateTime inactiveSince,
		String invalidationReason, Boolean failover, Boolean synced, Long retainedWalBytes,
		Long confirmedFlushLagBytes, Boolean heartbeatAcknowledged, String lastAcknowledgedLsn, String diagnosis,
		Double secondsToLoss, ConnectorStatus connector) {

	/**
	 * Whether the server invalidated the slot: its WAL is gone, it can never be read again.
	 * @return whether it is lost or has an invalidation reason
	 */
	public boolean invalidated() {
		return "lost".equals(this.walStatus) || this.invalidationReason != null;
	}

	/**
	 * Whether the slot is logical.
	 * @return whether it is logical
	 */
	public boolean logical() {
		return "logical".equals(this.slotType);
	}

	SlotView withConnector(ConnectorStatus status) {
		return new SlotView(this.node, this.slotName, this.plugin, this.slotType, this.database, this.temporary, this.active,
				this.activePid, this.xmin, this.catalogXmin, this.restartLsn, this.confirmedFlushLsn, this.walStatus,
				this.safeWalSizeBytes, this.twoPhase, this.conflicting, this.inactiveSince, this.invalidationReason,
				this.failover, this.synced, this.retainedWalBytes, this.confirmedFlushLagBytes,
				this.heartbeatAcknowledged, this.lastAcknowledgedLsn, this.diagnosis, this.secondsToLoss, status);
	}

	SlotView withNode(String where) {
		return new SlotView(where, this.slotName, this.plugin, this.slotType, this.database, this.temporary, this.active,
				this.activePid, this.xmin, this.catalogXmin, this.restartLsn, this.confirmedFlushLsn, this.walStatus,
				this.safeWalSizeBytes, this.twoPhase, this.conflicting, this.inactiveSince, this.invalidationReason,
				this.failover, this.synced, this.retainedWalBytes, this.confirmedFlushLagBytes,
				this.heartbeatAcknowledged, this.lastAcknowledgedLsn, this.diagnosis, this.secondsToLoss, this.connector);
	}

	SlotView withInsight(SlotInsight insight) {
		return new SlotView(this.node, this.slotName, this.plugin, this.slotType, this.database, this.temporary, this.active,
				this.activePid, this.xmin, this.catalogXmin, this.restartLsn, this.confirmedFlushLsn, this.walStatus,
				this.safeWalSizeBytes, this.twoPhase, this.conflicting, this.inactiveSince, this.invalidationReason,
				this.failover, this.synced, this.retainedWalBytes, this.confirmedFlushLagBytes,
				insight.heartbeatAcknowledged(), insight.lastAcknowledgedLsn(), insight.diagnosis(),
				insight.secondsToLoss(), this.connector);
	}

}
