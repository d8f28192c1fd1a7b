package io.slotkeeper.slot.changing;

import java.util.Map;

import io.micrometer.core.instrument.MeterRegistry;

import io.slotkeeper.connect.ConnectorClient;
import io.slotkeeper.connect.ConnectorHandovers;
import io.slotkeeper.connect.ConnectorLifecycle;
import io.slotkeeper.connect.Handover;
import io.slotkeeper.connect.HandoverLog;
import io.slotkeeper.fleet.GapDeletes;
import io.slotkeeper.fleet.Node;
import io.slotkeeper.fleet.Target;
import io.slotkeeper.slot.reading.ReplicationSlot;
import io.slotkeeper.slot.reading.SlotRepository;
import io.slotkeeper.slot.reading.SlotSighting;
import io.slotkeeper.slot.reading.SlotView;

/**
 * The replication-slot runbook. Every change is first planned from what the node shows now, by the
 * {@link SlotRules}, then either answered as a {@link ChangePlan} (a dry run) or run step by step; both under one
 * advisory lock per target, so that two instances never both act on what they read.
 */
public class SlotService {

	private final RecreateFollowUp followUp;

	private final Resnapshots resnapshots;

	private final HandoverCompletions completions;

	private final PendingHandovers pending;

	/**
	 * Creates the service, keeping connector handovers to itself.
	 * @param connectors the Kafka Connect client
	 * @param registry where recreations are counted
	 */
	public SlotService(ConnectorClient connectors, MeterRegistry registry) {
		this(connectors, new HandoverLog(), registry);
	}

	/**
	 * Creates the service.
	 * @param connectors the Kafka Connect client
	 * @param handovers where the last handover of each connector is kept
	 * @param registry where recreations and re-snapshots are counted
	 */
	public SlotService(ConnectorClient connectors, HandoverLog handovers, MeterRegistry registry) {
		this.resnapshots = new Resnapshots(new ConnectorLifecycle(connectors), registry);
		ConnectorHandovers connectorHandovers = new ConnectorHandovers(connectors, handovers);
		this.pending = new PendingHandovers();
		this.followUp = new RecreateFollowUp(connectorHandovers, this.resnapshots, this.pending, registry);
		this.completions = new HandoverCompletions(this.pending, connectorHandovers, this.resnapshots);
	}

	/**
	 * Keeps a handover of a slot's connector to its slot's confirmed position, for the next
	 * {@link #completePendingHandovers}: for a connector whose task failed on a stored offset older than its slot.
	 * @param target the target
	 * @param slot the slot
	 * @param connector the connector's name
	 * @param position the slot's confirmed position
	 * @param reason why, for the audit
	 */
	public void keepHandover(Target target, String slot, String connector, long position, String reason) {
		this.pending.keep(target, new PendingHandovers.Pending(slot, connector, position, java.time.Instant.now(),
				reason, null));
	}

	/**
	 * Completes the connector handovers of the target's recreates that waited for Kafka Connect to answer.
	 * @param target the target
	 * @return those completed now; empty when none waits, Kafka Connect still does not answer, or another instance or
	 * a change holds the target's change lock
	 */
	public java.util.List<CompletedHandover> completePendingHandovers(Target target) {
		return this.completions.complete(target);
	}

	/**
	 * What creating a slot would do.
	 * @param target the target
	 * @param node the node's name, {@code null} for the primary
	 * @param spec the slot to create
	 * @return the plan
	 */
	public ChangePlan planCreate(Target target, String node, SlotSpec spec) {
		return ChangeRunner.dryRun(target.nodes().named(node), "slot.create", spec.name(),
				SlotPlanners.creating(target, target.nodes().named(node), spec, null));
	}

	/**
	 * Creates a slot.
	 * @param target the target
	 * @param node the node's name, {@code null} for the primary
	 * @param spec the slot to create
	 * @return the slot as created
	 */
	public SlotView create(Target target, String node, SlotSpec spec) {
		return create(target, target.nodes().named(node), spec, null);
	}

	private SlotView create(Target target, Node where, SlotSpec spec, Handover handover) {
		return ChangeRunner.apply(where, SlotPlanners.creating(target, where, spec, handover),
				(connection, before) -> SlotView.of(where.name(), SlotRepository.require(connection, where, spec.name())));
	}

	/**
	 * What dropping a slot would do.
	 * @param target the target
	 * @param node the node's name, {@code null} for the primary
	 * @param slot the slot's name
	 * @param force end the session holding an active slot
	 * @param ifMatch the entity tags the caller saw the slot with, {@code null} for any
	 * @return the plan
	 */
	public ChangePlan planDrop(Target target, String node, String slot, boolean force, String ifMatch) {
		return ChangeRunner.dryRun(target.nodes().named(node), "slot.drop", slot,
				SlotPlanners.dropping(target, target.nodes().named(node), slot, force, ifMatch));
	}

	/**
	 * Drops a slot.
	 * @param target the target
	 * @param node the node's name, {@code null} for the primary
	 * @param slot the slot's name
	 * @param force end the session holding an active slot
	 * @param ifMatch the entity tags the caller saw the slot with, {@code null} for any
	 */
	public void drop(Target target, String node, String slot, boolean force, String ifMatch) {
		Node where = target.nodes().named(node);
		ReplicationSlot dropped = ChangeRunner.apply(where, SlotPlanners.dropping(target, where, slot, force, ifMatch),
				(connection, before) -> before);
		if (where.primary()) {
			RecreateFollowUp.nextEpoch(target, where, slot,
					dropped.logical() ? dropped.confirmedFlushLsn() : dropped.restartLsn());
		}
	}

	/**
	 * What switching a slot's failover flag would do.
	 * @param target the target
	 * @param slot the primary's slot
	 * @param failover whether it should be synchronized to standbys
	 * @param force end the session holding an active slot (its consumer reconnects)
	 * @param ifMatch the entity tags the caller saw the slot with, {@code null} for any
	 * @return the plan
	 */
	public ChangePlan planFailover(Target target, String slot, boolean failover, boolean force, String ifMatch) {
		return ChangeRunner.dryRun(target.primary(), "slot.failover", slot,
				SlotPlanners.alteringFailover(target.primary(), slot, failover, force, ifMatch));
	}

	/**
	 * Switches a slot's failover flag on the primary (PostgreSQL 17+), over a replication connection.
	 * @param target the target
	 * @param slot the primary's slot
	 * @param failover whether it should be synchronized to standbys
	 * @param force end the session holding an active slot (its consumer reconnects)
	 * @param ifMatch the entity tags the caller saw the slot with, {@code null} for any
	 * @return the slot as it is now
	 */
	public SlotView failover(Target target, String slot, boolean failover, boolean force, String ifMatch) {
		Node primary = target.primary();
		return ChangeRunner.apply(primary, SlotPlanners.alteringFailover(primary, slot, failover, force, ifMatch),
				(connection, before) -> SlotView.of(primary.name(), SlotRepository.require(connection, primary, slot)));
	}

	/**
	 * What recreating a slot would do.
	 * @param target the target
	 * @param node the node's name, {@code null} for the primary
	 * @param slot the slot's name
	 * @param force recreate a slot that is not invalidated; end the session holding it
	 * @param ifMatch the entity tags the caller saw the slot with, {@code null} for any
	 * @return the plan
	 */
	public ChangePlan planRecreate(Target target, String node, String slot, boolean force, String ifMatch) {
		Node where = target.nodes().named(node);
		return ChangeRunner.dryRun(where, "slot.recreate", slot,
				SlotPlanners.recreating(target, where, slot, force, ifMatch, this.followUp.plan(target, where, slot)));
	}

	/**
	 * Drops a slot and creates it again with the same options, then hands its connector over to it.
	 * @param target the target
	 * @param node the node's name, {@code null} for the primary
	 * @param slot the slot's name
	 * @param force recreate a slot that is not invalidated; end the session holding it
	 * @param ifMatch the entity tags the caller saw the slot with, {@code null} for any
	 * @return the old and new slot, the skipped range and the connector's outcome
	 */
	public RecreateResult recreate(Target target, String node, String slot, boolean force, String ifMatch) {
		Node where = target.nodes().named(node);
		Handover handover = this.followUp.plan(target, where, slot);
		Replacement replacement = new Replacement();
		RecreateResult recreated = this.followUp.guarded(handover, () -> ChangeRunner.apply(where,
				SlotPlanners.recreating(target, where, slot, force, ifMatch, handover, replacement),
				(connection, before) -> RecreateResult.of(where.name(), before,
						SlotRepository.require(connection, where, slot), replacement.made())));
		return this.followUp.finish(target, where, recreated, handover);
	}

	/**
	 * Hands a slot's connector over to the slot its manager ({@code managed-by}) made anew after it was lost or went
	 * missing, as after a recreate (offsets aligned once the connector stopped, re-snapshot, lineage, gap deletes);
	 * the slot itself is neither dropped nor created.
	 * @param target the target
	 * @param slot the slot's name
	 * @param lastSeen what was last seen of it before it was made anew
	 * @param manager who made it, as configured
	 * @return the slot as last seen, the new one, the gap and the connector's outcome
	 */
	public RecreateResult madeAnew(Target target, String slot, SlotSighting lastSeen, String manager) {
		Node primary = target.primary();
		Handover handover = this.followUp.plan(target, primary, slot);
		RecreateResult made = this.followUp.guarded(handover, () -> ChangeRunner.apply(primary,
				SlotPlanners.adopting(primary, slot, handover, manager), (connection, before) -> {
					if (handover != null && handover.stopped()) {
						ReleasedPosition.read(connection, slot, null);
					}
					return RecreateResult.ofMadeAnew(primary.name(), lastSeen,
							SlotRepository.require(connection, primary, slot), manager);
				}));
		return this.followUp.finishMadeAnew(target, made, handover);
	}

	/**
	 * Creates a configured slot that the primary does not have (after a failover to a server that never had it), as
	 * last seen — logical with pgoutput when never seen — then hands its connector over to it.
	 * @param target the target
	 * @param slot the slot's name
	 * @param lastSeen what was last seen of it, {@code null} when never
	 * @return the slot as last seen, the new one, the gap from the last position seen (its start unknown) and the
	 * connector's outcome
	 */
	public RecreateResult recreateMissing(Target target, String slot, SlotSighting lastSeen) {
		SlotSpec spec = (lastSeen != null) ? new SlotSpec(slot, !"physical".equals(lastSeen.slotType()),
				lastSeen.plugin(), Boolean.TRUE.equals(lastSeen.twoPhase()), Boolean.TRUE.equals(lastSeen.failover()))
				: new SlotSpec(slot, true, "pgoutput", false, false);
		Handover handover = this.followUp.plan(target, target.primary(), slot);
		SlotView created = this.followUp.guarded(handover, () -> create(target, target.primary(), spec, handover));
		return this.followUp.finish(target, target.primary(), RecreateResult.ofMissing(slot, lastSeen, created),
				handover);
	}

	/**
	 * Exports the gap counts of the target's slots at 0 before the first recreate.
	 * @param target the target
	 */
	public void primeGapCounts(Target target) {
		this.followUp.gapDeletes().prime(target);
	}

	/**
	 * Whether a count of a recreate's gap deletes waits to be taken again for the target.
	 * @param target the target
	 * @return whether one waits
	 */
	public boolean gapDeletesWaiting(Target target) {
		return this.followUp.gapDeletes().waiting(target);
	}

	/**
	 * Counts again the gap deletes of the target's recreates whose recheck is due.
	 * @param target the target
	 * @return the counts that changed, by slot
	 */
	public Map<String, GapDeletes> recountGapDeletes(Target target) {
		return this.followUp.gapDeletes().recheck(target);
	}

	/**
	 * The re-snapshot signals of slots.
	 * @return the signals
	 */
	public Resnapshots resnapshots() {
		return this.resnapshots;
	}

}
