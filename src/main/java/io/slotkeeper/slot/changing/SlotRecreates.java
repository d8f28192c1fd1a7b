package io.slotkeeper.slot.changing;

import io.slotkeeper.fleet.Target;
import io.slotkeeper.handover.Handover;
import io.slotkeeper.handover.ReleasedPosition;
import io.slotkeeper.replication.SlotRepository;
import io.slotkeeper.replication.SlotSighting;
import io.slotkeeper.replication.SlotView;
import io.slotkeeper.sessions.Node;

/**
 * The recreates of the runbook, each followed by its connector's handover
 * ({@link RecreateFollowUp}): a slot dropped and created again with the same options, one
 * its manager made anew, one missing after a failover created as last seen; planned and
 * run as every change is ({@link ChangeRunner}).
 */
public class SlotRecreates {

	private final RecreateFollowUp followUp;

	SlotRecreates(RecreateFollowUp followUp) {
		this.followUp = followUp;
	}

	/**
	 * For a subclass that records the recreates instead of running them, as a test of
	 * their caller does.
	 */
	protected SlotRecreates() {
		this(null);
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
	 * Drops a slot and creates it again with the same options, then hands its connector
	 * over to it, as
	 * {@link #recreate(Target, String, String, boolean, String, BeforeHandover)} telling
	 * nothing before the handover.
	 * @param target the target
	 * @param node the node's name, {@code null} for the primary
	 * @param slot the slot's name
	 * @param force recreate a slot that is not invalidated; end the session holding it
	 * @param ifMatch the entity tags the caller saw the slot with, {@code null} for any
	 * @return the old and new slot, the skipped range and the connector's outcome
	 */
	public RecreateResult recreate(Target target, String node, String slot, boolean force, String ifMatch) {
		return recreate(target, node, slot, force, ifMatch, BeforeHandover.NONE);
	}

	/**
	 * Drops a slot and creates it again with the same options, then hands its connector
	 * over to it.
	 * @param target the target
	 * @param node the node's name, {@code null} for the primary
	 * @param slot the slot's name
	 * @param force recreate a slot that is not invalidated; end the session holding it
	 * @param ifMatch the entity tags the caller saw the slot with, {@code null} for any
	 * @param beforeHandover told once the slot is made, before its connector is handed
	 * over
	 * @return the old and new slot, the skipped range and the connector's outcome
	 */
	public RecreateResult recreate(Target target, String node, String slot, boolean force, String ifMatch,
			BeforeHandover beforeHandover) {
		Node where = target.nodes().named(node);
		Handover handover = this.followUp.plan(target, where, slot);
		Replacement replacement = new Replacement();
		RecreateResult recreated = this.followUp.guarded(handover,
				() -> ChangeRunner.apply(where,
						SlotPlanners.recreating(target, where, slot, force, ifMatch, handover, replacement),
						(connection, before) -> RecreateResult.of(where.name(), before,
								SlotRepository.require(connection, where, slot), replacement.made())));
		return this.followUp.finish(target, where, recreated, handover, beforeHandover);
	}

	/**
	 * Hands a slot's connector over to the slot its manager ({@code managed-by}) made
	 * anew after it was lost or went missing, as after a recreate (offsets aligned once
	 * the connector stopped, re-snapshot, lineage, gap deletes); the slot itself is
	 * neither dropped nor created.
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
	 * Creates a configured slot that the primary does not have (after a failover to a
	 * server that never had it), as last seen — logical with pgoutput when never seen —
	 * then hands its connector over to it.
	 * @param target the target
	 * @param slot the slot's name
	 * @param lastSeen what was last seen of it, {@code null} when never
	 * @param beforeHandover told once the slot is made, before its connector is handed
	 * over
	 * @return the slot as last seen, the new one, the gap from the last position seen
	 * (its start unknown) and the connector's outcome
	 */
	public RecreateResult recreateMissing(Target target, String slot, SlotSighting lastSeen,
			BeforeHandover beforeHandover) {
		SlotSpec spec = (lastSeen != null)
				? new SlotSpec(slot, !"physical".equals(lastSeen.slotType()), lastSeen.plugin(),
						Boolean.TRUE.equals(lastSeen.twoPhase()), Boolean.TRUE.equals(lastSeen.failover()))
				: new SlotSpec(slot, true, "pgoutput", false, false);
		Handover handover = this.followUp.plan(target, target.primary(), slot);
		SlotView created = this.followUp.guarded(handover, () -> create(target, target.primary(), spec, handover));
		return this.followUp.finish(target, target.primary(), RecreateResult.ofMissing(slot, lastSeen, created),
				handover, beforeHandover);
	}

	/**
	 * Creates a slot on a node, its connector handed over to it when a handover is given.
	 */
	static SlotView create(Target target, Node where, SlotSpec spec, Handover handover) {
		return ChangeRunner.apply(where, SlotPlanners.creating(target, where, spec, handover), (connection,
				before) -> SlotView.of(where.name(), SlotRepository.require(connection, where, spec.name())));
	}

}
