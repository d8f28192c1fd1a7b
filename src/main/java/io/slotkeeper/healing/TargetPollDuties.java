package io.slotkeeper.healing;

import java.time.Clock;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Supplier;
import java.util.stream.Collectors;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tag;
import io.micrometer.core.instrument.Tags;

import io.slotkeeper.audit.Auditor;
import io.slotkeeper.audit.Happening;
import io.slotkeeper.config.SlotPolicyProperties;
import io.slotkeeper.failover.FailoverStates;
import io.slotkeeper.fleet.Target;
import io.slotkeeper.gap.GapJournals;
import io.slotkeeper.outage.KeepSizeGuard;
import io.slotkeeper.replication.ReplicationSlot;
import io.slotkeeper.replication.SlotPoll;
import io.slotkeeper.settings.SettingFinding;
import io.slotkeeper.settings.SettingGauges;
import io.slotkeeper.settings.SettingsAudit;
import io.slotkeeper.watching.ConnectorStates;
import io.slotkeeper.watching.DutyLanes;
import io.slotkeeper.watching.PollDuties;
import io.slotkeeper.watching.SlotInsights;
import io.slotkeeper.watching.SlotSightings;
import io.slotkeeper.watching.SlotWatch;

/**
 * What one target's poll hands to {@link DutyLanes} once it has read the slots, each on
 * its own lane so that a slow Kafka Connect or a long heal delays only itself: heal the
 * lost and missing slots (and read again once one was), guard the server's WAL limit, ask
 * Kafka Connect about the slots' connectors, complete and align handovers, restart failed
 * connectors, check the replicas for failover.
 */
final class TargetPollDuties implements PollDuties.TargetDuties {

	private static final String DEBEZIUM_PUBLICATION = "dbz_publication";

	private final Target target;

	private final Supplier<List<Target>> fleet;

	private final SlotHealer healer;

	private final ConnectorDuties connectorDuties;

	private final KeepSizeGuard keepSize;

	private final ConnectorStates connectors;

	private final SlotSightings sightings;

	private final SlotInsights insights;

	private final FailoverStates failover;

	private final SettingsAudit settings;

	private final SettingGauges connectorGauges;

	private final StaleOffsets staleOffsets;

	private final FailedRestarts restarts;

	private final MeterRegistry registry;

	private final GapJournals journals;

	private final Auditor auditor;

	private volatile Set<Critical> critical = Set.of();

	TargetPollDuties(Target target, Supplier<List<Target>> fleet, HealingCrew crew, SlotWatch watch,
			GapJournals journals, MeterRegistry registry, Clock clock) {
		this.target = target;
		this.journals = journals;
		this.fleet = fleet;
		this.healer = crew.healer();
		this.connectorDuties = crew.connectors();
		this.keepSize = crew.keepSize();
		this.connectors = watch.connectors();
		this.sightings = watch.sightings();
		this.insights = watch.insights();
		this.failover = watch.failover();
		this.settings = watch.settings();
		this.registry = registry;
		this.auditor = crew.auditor();
		this.connectorGauges = SettingGauges.connectors(registry);
		this.staleOffsets = new StaleOffsets(registry);
		this.restarts = new FailedRestarts(this.connectors.client(), crew.auditor(), registry, clock);
		RaisedLimitGauges.register(target.name(), crew.keepSize(), registry, clock);
	}

	@Override
	public Map<String, String> staleOffsets() {
		return this.staleOffsets.summaries();
	}

	@Override
	public void follow(SlotPoll poll, List<ReplicationSlot> serverSlots, DutyLanes dutyLanes, Runnable readAgain) {
		// Policies are read at each poll: a discovered connector can bring one, or its
		// recreate, at any time.
		List<SlotPolicyProperties> policies = this.target.slots().policies();
		if (policies.stream().anyMatch(SlotPolicyProperties::actsOnLoss)) {
			dutyLanes.heal(this.target.name(), () -> {
				heal(poll, readAgain);
				this.journals.follow(this.target, poll.slots(), serverSlots, this::publications,
						(slot) -> this.insights.of(this.target.name(), slot).soonestLoss());
			});
		}
		// What stands is shown from the poll's own thread, so that a busy or stuck guard
		// lane cannot hide it.
		KeepSizeGuard keepSize = this.keepSize;
		if (keepSize.concerns(this.target)) {
			this.settings.acted(this.target.name(),
					keepSize.observe(this.target, this.fleet.get(), serverSlots, poll.settings()));
			dutyLanes.guardKeepSize(this.target.name(), () -> keepSize.guard(this.target, this.fleet.get(), serverSlots,
					poll.settings(), this.insights::of));
		}
		else {
			this.settings.acted(this.target.name(), List.of());
		}
		this.connectorDuties.primeCounters(this.target);
		this.restarts.prime(this.target);
		if (this.connectorDuties.rechecksWaiting(this.target)) {
			dutyLanes.recheckResnapshots(this.target.name(),
					() -> this.connectorDuties.recheckResnapshots(this.target));
		}
		if (policies.stream().anyMatch((slot) -> slot.connector() != null)) {
			dutyLanes.checkConnectors(this.target.name(), () -> {
				this.connectors.refresh(this.target, poll.slots());
				showConnectorFindings(policies);
			});
			dutyLanes.completeHandovers(this.target.name(), () -> handOver(poll));
		}
		else {
			// Nothing to ask Kafka Connect: the connectors' series at rest, so that they
			// exist before a connector does.
			this.staleOffsets.update(this.target, this.connectors, owned(poll));
			showConnectorFindings(policies);
		}
		if (!this.target.properties().replicas().isEmpty()) {
			tellReadiness(this.failover.update(this.target, poll.slots(), this.registry));
			if (this.healer.dropOrphans(this.target, this.failover.orphans(this.target.name()))) {
				tellReadiness(this.failover.update(this.target, poll.slots(), this.registry));
			}
		}
	}

	// As for the slots' own meters, an instance standing by exports nothing: the owner
	// does, so an alert fires once.
	private void handOver(SlotPoll poll) {
		List<ReplicationSlot> slots = owned(poll);
		this.connectorDuties.alignStaleOffsets(this.target,
				this.staleOffsets.update(this.target, this.connectors, slots));
		this.connectorDuties.completeHandovers(this.target);
		this.restarts.restartFailed(this.target, this.connectors, slots);
	}

	// Told by the target's owner alone, so that one change is one event.
	private void tellReadiness(List<FailoverStates.Change> changes) {
		if (!this.target.ownership().owned()) {
			return;
		}
		for (FailoverStates.Change change : changes) {
			String slot = "Slot " + change.slot() + " of target " + this.target.name();
			this.auditor.tell((change.reason() == null)
					? Happening.normal(this.target.name(), change.slot(), "FailoverReady", "CheckFailover",
							slot + " is ready for a failover to replica " + change.node() + ".")
					: Happening.warning(this.target.name(), change.slot(), "FailoverNotReady", "CheckFailover",
							slot + " would be missing after a failover to replica " + change.node() + ": "
									+ change.reason() + "."));
		}
	}

	private List<ReplicationSlot> owned(SlotPoll poll) {
		return Boolean.FALSE.equals(this.target.ownership().state()) ? List.of() : poll.slots();
	}

	// Every slot with a policy has the audit's resting series, a connector or not (yet).
	private void showConnectorFindings(List<SlotPolicyProperties> policies) {
		Map<Tags, List<SettingFinding>> findings = this.connectors.findings(this.target.name());
		this.connectorGauges.update(findings,
				policies.stream()
					.map((policy) -> Tags.of("target", this.target.name(), "slot", policy.name(), "connector", ""))
					.collect(Collectors.toSet()));
		Map<Critical, SettingFinding> critical = new HashMap<>();
		this.settings.of(this.target.name())
			.ifPresent((view) -> view.findings()
				.stream()
				.filter((finding) -> SettingFinding.CRITICAL.equals(finding.severity()))
				.forEach((finding) -> critical.put(new Critical(null, finding.setting()), finding)));
		findings.forEach((about, found) -> found.stream()
			.filter((finding) -> SettingFinding.CRITICAL.equals(finding.severity()))
			.forEach((finding) -> critical.put(new Critical(about.stream()
				.filter((tag) -> tag.getKey().equals("slot"))
				.findFirst()
				.map(Tag::getValue)
				.orElse(null), finding.setting()), finding)));
		tellNewlyCritical(critical);
	}

	// A critical finding is told once, when it appears (by the owner: one event, not one
	// per pod); one that went and came back is told again.
	private void tellNewlyCritical(Map<Critical, SettingFinding> critical) {
		if (this.target.ownership().owned()) {
			critical.forEach((key, finding) -> {
				if (!this.critical.contains(key)) {
					this.auditor
						.tell(Happening.warning(this.target.name(), key.slot(), "SettingCritical", "AuditSettings",
								((key.slot() == null) ? "The server of target " + this.target.name()
										: "The connector of slot " + key.slot() + " of target " + this.target.name())
										+ " has " + finding.setting() + " = " + finding.value() + ": "
										+ finding.message()));
				}
			});
		}
		this.critical = Set.copyOf(critical.keySet());
	}

	// A critical finding: of the server's settings (no slot) or of a slot's connector.
	private record Critical(String slot, String setting) {
	}

	// The connector's publication.name as last read, Debezium's default when its
	// configuration does not set it; every publication of the database for a slot without
	// a connector, or whose connector's configuration was never read (Kafka Connect
	// unreachable since this instance started): a journal of more tables than the
	// consumer reads re-reads more, never less, and one naming a publication the
	// database lacks reads nothing.
	private List<String> publications(String slot) {
		return this.target.slots()
			.policy(slot)
			.filter((policy) -> policy.connector() != null)
			.flatMap((policy) -> this.connectors.audit(this.target.name(), slot))
			.filter((audit) -> audit.readAt() != null)
			.map((audit) -> List.of(java.util.Objects.requireNonNullElse(audit.settings().get("publication.name"),
					DEBEZIUM_PUBLICATION)))
			.orElse(List.of());
	}

	private void heal(SlotPoll poll, Runnable readAgain) {
		boolean healed = this.healer.heal(this.target, poll.slots());
		healed |= this.healer.healMissing(this.target, this.sightings.missing(this.target.name()));
		this.connectorDuties.handOverMadeAnew(this.target, this.sightings.takeMadeAnew(this.target.name()),
				(slot) -> this.sightings.again(this.target.name(), slot));
		if (healed) {
			readAgain.run();
		}
	}

}
