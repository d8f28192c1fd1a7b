package io.slotkeeper.slot.changing;

import java.time.Clock;

import io.micrometer.core.instrument.MeterRegistry;

import io.slotkeeper.config.GapJournalProperties;
import io.slotkeeper.connect.ConnectorClient;
import io.slotkeeper.connect.ConnectorLifecycle;
import io.slotkeeper.fleet.Target;
import io.slotkeeper.gap.GapJournals;
import io.slotkeeper.handover.ConnectorHandovers;
import io.slotkeeper.handover.HandoverCompletions;
import io.slotkeeper.handover.HandoverLog;
import io.slotkeeper.handover.PendingHandovers;
import io.slotkeeper.replication.ReplicationSlot;
import io.slotkeeper.replication.SlotRepository;
import io.slotkeeper.replication.SlotView;
import io.slotkeeper.resnapshot.Resnapshots;
import io.slotkeeper.sessions.Node;

/**
 * The replication-slot runbook. Every change is first planned from what the node shows
 * now, by the {@link SlotRules}, then either answered as a {@link ChangePlan} (a dry run)
 * or run step by step; both under one advisory lock per target, so that two instances
 * never both act on what they read.
 */
public class SlotService {

	private final RecreateFollowUp followUp;

	private final SlotFollowUps followUps;

	private final SlotRecreates recreates;

	private final Clock clock;

	private final GapJournals journals;

	/**
	 * Creates the service, keeping connector handovers to itself.
	 * @param connectors the Kafka Connect client
	 * @param registry where recreations are counted
	 * @param clock when things happen
	 */
	public SlotService(ConnectorClient connectors, MeterRegistry registry, Clock clock) {
		this(connectors, new HandoverLog(), registry, new GapJournals(GapJournalProperties.off(), registry, clock),
				clock);
	}

	/**
	 * Creates the service.
	 * @param connectors the Kafka Connect client
	 * @param handovers where the last handover of each connector is kept
	 * @param registry where recreations and re-snapshots are counted
	 * @param journals what changed while a slot's consumer was away, closed at its
	 * recreate
	 * @param clock when things happen
	 */
	public SlotService(ConnectorClient connectors, HandoverLog handovers, MeterRegistry registry, GapJournals journals,
			Clock clock) {
		this.journals = journals;
		this.clock = clock;
		Resnapshots resnapshots = new Resnapshots(new ConnectorLifecycle(connectors), journals, registry, clock);
		ConnectorHandovers connectorHandovers = new ConnectorHandovers(connectors, handovers, clock);
		PendingHandovers pending = new PendingHandovers(clock);
		this.followUp = new RecreateFollowUp(connectorHandovers, resnapshots, pending, registry, journals, clock);
		this.recreates = new SlotRecreates(this.followUp);
		this.followUps = new SlotFollowUps(this.followUp, resnapshots, pending,
				new HandoverCompletions(pending, connectorHandovers, resnapshots));
	}

	/**
	 * The gap journals whose journal a recreate of the slot closes.
	 * @return the journals
	 */
	public GapJournals journals() {
		return this.journals;
	}

	/**
	 * What follows the recreates after their call returned: pending handovers,
	 * re-snapshot rechecks, gap counts.
	 * @return the follow-ups
	 */
	public SlotFollowUps followUps() {
		return this.followUps;
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
		return SlotRecreates.create(target, target.nodes().named(node), spec, null);
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
					dropped.logical() ? dropped.confirmedFlushLsn() : dropped.restartLsn(), this.clock.instant());
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
	 * Switches a slot's failover flag on the primary (PostgreSQL 17+), over a replication
	 * connection.
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
	 * The recreates: a lost slot dropped and created again, one made anew by its manager,
	 * one missing created.
	 * @return them
	 */
	public SlotRecreates recreates() {
		return this.recreates;
	}

}
