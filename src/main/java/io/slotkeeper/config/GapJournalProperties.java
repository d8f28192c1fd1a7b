package io.slotkeeper.config;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.NotNull;
import org.hibernate.validator.constraints.time.DurationMax;
import org.hibernate.validator.constraints.time.DurationMin;

import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.util.unit.DataSize;

/**
 * The gap journal: what changes while a slot's consumer is away, read from a copy of its
 * slot, so that a loss is known exactly. Kept for every pgoutput slot whose loss
 * slot-keeper heals or hands over, by the instance that owns its target.
 *
 * @param enabled whether journals are kept (default {@code true})
 * @param after how long a slot's consumer must be away (the slot inactive) before its
 * journal starts (default 30s)
 * @param whenLossWithin a journal also starts, its consumer reading or not, once the
 * slot's estimated time to loss is under this (a consumer that reads too slowly), and
 * goes on while it is; {@code 0s} for never (default 10m)
 * @param maxKeys how many keys one slot's journal keeps; past it, the table that would
 * grow it is read whole after a loss (default 100000)
 * @param maxCopiesPerServer how many copies of slots may exist at once on one server:
 * each takes a replication slot ({@code max_replication_slots}) and holds its slot's
 * {@code catalog_xmin} (default 2)
 * @param pageChanges how many messages one decoding call reads at most, rounded up to a
 * whole transaction (default 10000)
 * @param pagesPerPoll how many decoding calls one poll makes at most, so that the copy
 * follows the server's head without holding the poll (default 20)
 * @param database the database of each journaled slot's server that its journal is kept
 * in, in slot-keeper's schema {@code slotkeeper}, so that it survives a restart and a
 * takeover; never the captured database (its publications could carry it); blank to keep
 * journals in memory only (default {@code postgres}, the maintenance database)
 * @param maxEventBytes how many bytes of outbox events ({@code resnapshot.outbox-tables})
 * one slot's journal keeps, counted as their values' characters; past it, that table's
 * later events are not kept and its delivery says so (default 32MB, at most 1GB): the
 * owner holds them in its heap until the gap is closed
 */
@Consistent
public record GapJournalProperties(@DefaultValue("true") boolean enabled,
		@NotNull @DurationMin(seconds = 1) @DurationMax(hours = 24) @DefaultValue("30s") Duration after,
		@NotNull @DurationMin(seconds = 0) @DurationMax(hours = 24) @DefaultValue("10m") Duration whenLossWithin,
		@Min(1) @Max(10_000_000) @DefaultValue("100000") int maxKeys,
		@Min(1) @Max(64) @DefaultValue("2") int maxCopiesPerServer,
		@Min(1) @Max(1_000_000) @DefaultValue("10000") int pageChanges,
		@Min(1) @Max(1000) @DefaultValue("20") int pagesPerPoll, @NotNull @DefaultValue("postgres") String database,
		@NotNull @DefaultValue("32MB") DataSize maxEventBytes) implements CrossFieldChecked {

	private static final DataSize MOST_EVENT_BYTES = DataSize.ofGigabytes(1);

	/**
	 * No journal at all.
	 * @return the settings
	 */
	public static GapJournalProperties off() {
		return new GapJournalProperties(false, Duration.ofSeconds(30), Duration.ofMinutes(10), 100_000, 2, 10_000, 20,
				"postgres", DataSize.ofMegabytes(32));
	}

	@Override
	public List<Violation> violations() {
		List<Violation> violations = new ArrayList<>();
		if (this.maxEventBytes != null
				&& (this.maxEventBytes.toBytes() < 1 || this.maxEventBytes.toBytes() > MOST_EVENT_BYTES.toBytes())) {
			violations.add(new Violation("maxEventBytes", "must be from 1B to 1GB, but was " + this.maxEventBytes));
		}
		return violations;
	}

}
