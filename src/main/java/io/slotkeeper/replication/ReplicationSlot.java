package io.slotkeeper.replication;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.OffsetDateTime;
import java.util.HexFormat;

/**
 * A replication slot as {@code pg_replication_slots} shows it, with the WAL it pins. A
 * column the server's version lacks is {@code null}. Built by name with
 * {@link #builder()}.
 *
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
 * @param walStatus {@code reserved}, {@code extended}, {@code unreserved} or {@code lost}
 * (PG 13+)
 * @param safeWalSizeBytes WAL that can still be written before it is at risk;
 * {@code null} when unlimited (PG 13+)
 * @param twoPhase whether it decodes prepared transactions (PG 14+)
 * @param twoPhaseAt from which LSN prepared transactions are decoded as such (PG 18+)
 * @param conflicting whether it was invalidated by a recovery conflict (PG 16+)
 * @param inactiveSince since when no consumer streams from it (PG 17+)
 * @param invalidationReason why it was invalidated, for example {@code wal_removed} (PG
 * 17+)
 * @param failover whether it is synchronized to standbys (PG 17+)
 * @param synced whether it was synchronized from the primary (PG 17+)
 * @param retainedWalBytes WAL it pins: current LSN minus {@code restartLsn}
 * @param confirmedFlushLagBytes current LSN minus {@code confirmedFlushLsn}
 * @param xidAgeTransactions how many transactions old the oldest of {@code xmin} and
 * {@code catalogXmin} is: VACUUM cannot freeze past it, so an inactive slot moves the
 * database towards transaction-ID wraparound
 */
public record ReplicationSlot(String slotName, String plugin, String slotType, String database, Boolean temporary,
		Boolean active, Integer activePid, String xmin, String catalogXmin, String restartLsn, String confirmedFlushLsn,
		String walStatus, Long safeWalSizeBytes, Boolean twoPhase, String twoPhaseAt, Boolean conflicting,
		OffsetDateTime inactiveSince, String invalidationReason, Boolean failover, Boolean synced,
		Long retainedWalBytes, Long confirmedFlushLagBytes, Long xidAgeTransactions) {

	/**
	 * Whether the server invalidated the slot: its WAL is gone, it can never be read
	 * again.
	 * @return whether it is lost or has an invalidation reason
	 */
	public boolean invalidated() {
		return "lost".equals(this.walStatus) || this.invalidationReason != null;
	}

	/**
	 * Why the server invalidated the slot, in its words.
	 * @return PG 17+'s {@code invalidation_reason} ({@code wal_removed},
	 * {@code rows_removed}, {@code wal_level_insufficient}, PG 18's
	 * {@code idle_timeout}); before 17 {@code wal_removed} for a lost slot; {@code null}
	 * while valid
	 */
	public String invalidation() {
		if (this.invalidationReason != null) {
			return this.invalidationReason;
		}
		return "lost".equals(this.walStatus) ? "wal_removed" : null;
	}

	/**
	 * The slot's entity tag: it changes whenever the slot is dropped and created again,
	 * and whenever it moves (its consumer confirms, it becomes active, reserved, lost…),
	 * so that a change made with {@code If-Match} acts only on the slot its caller saw.
	 * @return a strong entity tag, quoted
	 */
	public String etag() {
		String state = String.join("|", String.valueOf(this.slotName), String.valueOf(this.slotType),
				String.valueOf(this.plugin), String.valueOf(this.database), String.valueOf(this.temporary),
				String.valueOf(this.twoPhase), String.valueOf(this.failover), String.valueOf(this.synced),
				String.valueOf(this.active), String.valueOf(this.walStatus), String.valueOf(this.invalidationReason),
				String.valueOf(this.restartLsn), String.valueOf(this.confirmedFlushLsn),
				String.valueOf(this.catalogXmin));
		try {
			byte[] digest = MessageDigest.getInstance("SHA-256").digest(state.getBytes(StandardCharsets.UTF_8));
			return "\"" + HexFormat.of().formatHex(digest, 0, 12) + "\"";
		}
		catch (NoSuchAlgorithmException ex) {
			throw new IllegalStateException("every Java runtime has SHA-256", ex);
		}
	}

	/**
	 * Whether the slot is logical.
	 * @return whether it is logical
	 */
	public boolean logical() {
		return "logical".equals(this.slotType);
	}

	/**
	 * Whether the slot is one database's: the logical slots a server's reading deals to
	 * that database.
	 * @param name the database's name
	 * @return whether the slot was created in it
	 */
	public boolean in(String name) {
		return name.equals(this.database);
	}

	/**
	 * Whether a consumer streams from it now.
	 * @return whether it is active
	 */
	public boolean streaming() {
		return Boolean.TRUE.equals(this.active);
	}

	/**
	 * A builder with every column unset.
	 * @return the builder
	 */
	public static Builder builder() {
		return new Builder();
	}

	/**
	 * Builds a slot by column name; unset columns are {@code null}.
	 */
	public static final class Builder {

		private String slotName;

		private String plugin;

		private String slotType;

		private String database;

		private Boolean temporary;

		private Boolean active;

		private Integer activePid;

		private String xmin;

		private String catalogXmin;

		private String restartLsn;

		private String confirmedFlushLsn;

		private String walStatus;

		private Long safeWalSizeBytes;

		private Boolean twoPhase;

		private String twoPhaseAt;

		private Boolean conflicting;

		private OffsetDateTime inactiveSince;

		private String invalidationReason;

		private Boolean failover;

		private Boolean synced;

		private Long retainedWalBytes;

		private Long confirmedFlushLagBytes;

		private Long xidAgeTransactions;

		private Builder() {
		}

		// One setter per column, named after the record's component.
		// @formatter:off
		public Builder slotName(String value) { this.slotName = value; return this; }
		public Builder plugin(String value) { this.plugin = value; return this; }
		public Builder slotType(String value) { this.slotType = value; return this; }
		public Builder database(String value) { this.database = value; return this; }
		public Builder temporary(Boolean value) { this.temporary = value; return this; }
		public Builder active(Boolean value) { this.active = value; return this; }
		public Builder activePid(Integer value) { this.activePid = value; return this; }
		public Builder xmin(String value) { this.xmin = value; return this; }
		public Builder catalogXmin(String value) { this.catalogXmin = value; return this; }
		public Builder restartLsn(String value) { this.restartLsn = value; return this; }
		public Builder confirmedFlushLsn(String value) { this.confirmedFlushLsn = value; return this; }
		public Builder walStatus(String value) { this.walStatus = value; return this; }
		public Builder safeWalSizeBytes(Long value) { this.safeWalSizeBytes = value; return this; }
		public Builder twoPhase(Boolean value) { this.twoPhase = value; return this; }
		public Builder twoPhaseAt(String value) { this.twoPhaseAt = value; return this; }
		public Builder conflicting(Boolean value) { this.conflicting = value; return this; }
		public Builder inactiveSince(OffsetDateTime value) { this.inactiveSince = value; return this; }
		public Builder invalidationReason(String value) { this.invalidationReason = value; return this; }
		public Builder failover(Boolean value) { this.failover = value; return this; }
		public Builder synced(Boolean value) { this.synced = value; return this; }
		public Builder retainedWalBytes(Long value) { this.retainedWalBytes = value; return this; }
		public Builder confirmedFlushLagBytes(Long value) { this.confirmedFlushLagBytes = value; return this; }
		public Builder xidAgeTransactions(Long value) { this.xidAgeTransactions = value; return this; }
		// @formatter:on

		/**
		 * The slot.
		 * @return the slot
		 */
		public ReplicationSlot build() {
			return new ReplicationSlot(this.slotName, this.plugin, this.slotType, this.database, this.temporary,
					this.active, this.activePid, this.xmin, this.catalogXmin, this.restartLsn, this.confirmedFlushLsn,
					this.walStatus, this.safeWalSizeBytes, this.twoPhase, this.twoPhaseAt, this.conflicting,
					this.inactiveSince, this.invalidationReason, this.failover, this.synced, this.retainedWalBytes,
					this.confirmedFlushLagBytes, this.xidAgeTransactions);
		}

	}

}
