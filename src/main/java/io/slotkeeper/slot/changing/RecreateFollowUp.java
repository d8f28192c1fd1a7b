package io.slotkeeper.slot.changing;

import java.time.Clock;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Instant;
import java.util.Collection;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;

import io.slotkeeper.connect.ChosenState;
import io.slotkeeper.fleet.Target;
import io.slotkeeper.gap.Gap;
import io.slotkeeper.gap.GapJournals;
import io.slotkeeper.handover.ConnectorHandovers;
import io.slotkeeper.handover.Handover;
import io.slotkeeper.handover.PendingHandovers;
import io.slotkeeper.lineage.GapDeletes;
import io.slotkeeper.lineage.SlotLineage;
import io.slotkeeper.lineage.TableCounters;
import io.slotkeeper.problem.ProblemException;
import io.slotkeeper.replication.SlotTags;
import io.slotkeeper.resnapshot.Resnapshots;
import io.slotkeeper.sessions.FailureDescription;
import io.slotkeeper.sessions.Node;

/**
 * What follows every recreate (through the API, or healing a lost or missing slot): it is
 * counted, the slot's connector, when one is configured, is handed over to the new slot
 * ({@link ConnectorHandovers}), and a re-snapshot of the skipped range is asked for when
 * the slot's settings say so ({@link Resnapshots}). A handover Kafka Connect could not be
 * reached for is kept ({@link PendingHandovers}) and its re-snapshot waits with it.
 */
final class RecreateFollowUp {

	private static final Logger logger = LoggerFactory.getLogger(RecreateFollowUp.class);

	private final ConnectorHandovers handovers;

	private final Resnapshots resnapshots;

	private final PendingHandovers pending;

	private final MeterRegistry registry;

	private final GapDeleteCounts gapDeletes;

	private final Clock clock;

	private final GapJournals journals;

	RecreateFollowUp(ConnectorHandovers handovers, Resnapshots resnapshots, PendingHandovers pending,
			MeterRegistry registry, GapJournals journals, Clock clock) {
		this.handovers = handovers;
		this.journals = journals;
		this.clock = clock;
		this.resnapshots = resnapshots;
		this.pending = pending;
		this.registry = registry;
		this.gapDeletes = new GapDeleteCounts(registry, clock);
	}

	/**
	 * The handover of the slot's connector, planned before the change: {@code null} when
	 * it has none, or when the change is on another node than the one the connector
	 * consumes (the primary): a replica's slot of the same name is not the connector's,
	 * and moving its offsets there would skip what it has not read.
	 */
	Handover plan(Target target, Node node, String slot) {
		if (!node.primary()) {
			return null;
		}
		return target.slots().connectorOf(slot).map(this.handovers::plan).orElse(null);
	}

	/**
	 * Runs the change; when it fails after the connector was stopped, resumes the
	 * connector as it was, so that a failed recreate never leaves a pipeline stopped.
	 */
	<T> T guarded(Handover handover, java.util.function.Supplier<T> change) {
		try {
			return change.get();
		}
		catch (RuntimeException ex) {
			if (handover != null) {
				this.handovers.abandon(handover);
			}
			throw ex;
		}
	}

	RecreateResult finish(Target target, Node node, RecreateResult done, Handover handover, BeforeHandover before) {
		Counter.builder("slotkeeper.slot.recreations")
			.description("Slots dropped and created again by slot-keeper")
			.tags(SlotTags.of(node.target(), node.name(), done.newSlot().slot()))
			.register(this.registry)
			.increment();
		return node.primary() ? handOver(target, node, done, handover, before) : done;
	}

	/**
	 * What follows a slot its manager made anew: as after a recreate, but not counted as
	 * slot-keeper's.
	 */
	RecreateResult finishMadeAnew(Target target, RecreateResult made, Handover handover) {
		return handOver(target, target.primary(), made, handover, BeforeHandover.NONE);
	}

	// The gap's deletes, the next epoch, the connector and the re-snapshot of a primary's
	// slot made anew.
	private RecreateResult handOver(Target target, Node node, RecreateResult done, Handover handover,
			BeforeHandover before) {
		String slot = done.newSlot().slot().slotName();
		Gap gap = this.journals.close(target, slot, done.skipped().fromLsn(), done.skipped().toLsn()).orElse(null);
		// The table counters' estimate only where no complete journal read the gap.
		GapDeletes deletes = (gap != null && gap.incomplete() == null) ? this.gapDeletes.journaled(target, slot, gap)
				: this.gapDeletes.atRecreate(target, slot, done.skipped().fromLsn(), tables(target, slot));
		RecreateResult recreated = done.withLineage(nextEpoch(target, node, done, deletes, this.clock.instant()))
			.withDeletes(deletes)
			.withGap(gap);
		this.resnapshots.pin(target, slot, recreated.skipped().fromLsn(), gap);
		RecreateResult handedOver = recreated;
		if (handover != null) {
			Long position = recreated.skipped().toPosition();
			// Read before the handover moves on from its stop: a handover that fails on
			// the way no longer knows what the connector's user chose.
			boolean begun = handover.stopped();
			ChosenState chosen = handover.chosenState();
			if (begun) {
				this.pending.begun(target, slot, handover.connectorName(), position, chosen);
			}
			before.recreated(recreated, handover.connectorName());
			try {
				handedOver = recreated.withConnector(this.handovers.complete(handover, position));
			}
			catch (RuntimeException ex) {
				if (begun) {
					this.pending.keep(target, slot, handover.connectorName(), position,
							"the handover failed: " + FailureDescription.messageOf(ex), chosen);
				}
				throw ex;
			}
			if (handedOver.connector().pending()) {
				this.pending.keep(target, slot, handover.connectorName(), position,
						"the slot was recreated while Kafka Connect could not be reached", chosen);
				return handedOver.withResnapshot(this.resnapshots.deferred(target, slot));
			}
			if (begun) {
				this.pending.completed(target, slot);
			}
		}
		boolean running = handedOver.connector() == null || handedOver.connector().readsTheNewSlot();
		return handedOver.withResnapshot(this.resnapshots.afterRecreate(target, slot, null, running));
	}

	// The tables the re-snapshot would read; every table sampled when they cannot be told
	// (Kafka Connect down).
	private Collection<String> tables(Target target, String slot) {
		try {
			return target.slots().policy(slot).filter(TableCounters::sampledFor).isPresent()
					? this.resnapshots.plan(target, slot).collections() : null;
		}
		catch (ProblemException ex) {
			return null;
		}
	}

	private static SlotLineage nextEpoch(Target target, Node node, RecreateResult recreated, GapDeletes deletes,
			Instant at) {
		return nextEpoch(target, node, recreated.newSlot().slot().slotName(), recreated.skipped().fromLsn(), deletes,
				at);
	}

	/**
	 * Starts a slot's next epoch: after a recreate, and after a drop (a slot made again
	 * by its name later is the next one). Recorded in the target's database for every
	 * instance; where that is refused, in memory.
	 */
	static SlotLineage nextEpoch(Target target, Node node, String slot, String previous, Instant at) {
		return nextEpoch(target, node, slot, previous, null, at);
	}

	private static SlotLineage nextEpoch(Target target, Node node, String slot, String previous, GapDeletes deletes,
			Instant at) {
		try (Connection connection = node.connection()) {
			return target.lineages().next(connection, slot, at, previous, deletes);
		}
		catch (SQLException ex) {
			logger.warn("The lineage of slot '{}' is counted in this instance's memory: {}", slot, ex.getMessage());
			return target.lineages().nextInMemory(slot, at, previous, deletes);
		}
	}

	/**
	 * The deletes of recreates' gaps, counted again once due.
	 */
	GapDeleteCounts gapDeletes() {
		return this.gapDeletes;
	}

}
