package io.slotkeeper.healing;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.junit.jupiter.api.Test;

import org.springframework.web.client.RestClient;

import io.slotkeeper.audit.AuditEntry;
import io.slotkeeper.audit.AuditJournal;
import io.slotkeeper.audit.Auditor;
import io.slotkeeper.connect.ConnectorClient;
import io.slotkeeper.fleet.Target;
import io.slotkeeper.handover.ConnectorHandover;
import io.slotkeeper.problem.ProblemException;
import io.slotkeeper.problem.ProblemKind;
import io.slotkeeper.replication.ReplicationSlot;
import io.slotkeeper.replication.SlotSighting;
import io.slotkeeper.replication.SlotView;
import io.slotkeeper.slot.changing.BeforeHandover;
import io.slotkeeper.slot.changing.RecreateResult;
import io.slotkeeper.slot.changing.SlotRecreates;
import io.slotkeeper.slot.changing.SlotService;
import io.slotkeeper.testbed.SteppingClock;
import io.slotkeeper.watching.SlotSightings;

import static io.slotkeeper.testbed.TestTargets.fleet;
import static io.slotkeeper.testbed.TestTargets.target;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Which lost slots healing recreates, and when it stops: decided without a server, the
 * recreate itself recorded instead of run (the real one is proven in
 * {@code SelfHealingTests}).
 */
class SlotHealerTests {

	private final AuditJournal journal = new AuditJournal(100);

	private final SteppingClock clock = new SteppingClock(Instant.parse("2026-12-01T08:00:00Z"));

	private final RecordingSlots slots = new RecordingSlots();

	private final Auditor auditor = new Auditor(this.journal, this.clock);

	private final HealBudget budget = new HealBudget(HealLedger.inMemory(), this.auditor);

	private final SlotHealer healer = new SlotHealer(this.slots, this.budget,
			new HealAttempts(this.budget, this.auditor, this.clock), new OrphanDrops(this.slots, this.auditor));

	private final Target target = fleet(target("orders", "jdbc:postgresql://db/orders", "slots[0].name", "healed",
			"slots[0].on-lost", "recreate", "slots[0].max-recreations-per-hour", "2", "slots[1].name", "watched",
			"slots[2].name", "returning", "slots[2].on-missing", "recreate"))
		.get("orders");

	private static ReplicationSlot lost(String name) {
		return ReplicationSlot.builder()
			.slotName(name)
			.slotType("logical")
			.plugin("pgoutput")
			.walStatus("lost")
			.build();
	}

	@Test
	void theOwnerRecreatesALostSlotWhosePolicySaysSoAndAuditsItAsSlotKeeper() {
		this.target.ownership().learnt(true);
		assertThat(this.healer.heal(this.target, List.of(lost("healed")))).isTrue();
		assertThat(this.slots.recording.recreated).containsExactly("healed");
		AuditEntry entry = this.journal.entries().get(0);
		assertThat(entry.actor()).isEqualTo(Auditor.SELF);
		assertThat(entry.action()).isEqualTo("slot.heal");
		assertThat(entry.outcome()).isEqualTo("done");
		assertThat(entry.lsns()).containsEntry("skippedFrom", "0/100");
	}

	@Test
	void aHealIsAuditedOnceItsSlotIsMadeBeforeTheHandoverWhichMayOutliveTheInstanceAndTheHandoverWhenItEnds() {
		this.target.ownership().learnt(true);
		List<String> auditedBeforeTheHandover = new ArrayList<>();
		this.slots.recording.handover = (made) -> {
			this.journal.entries()
				.forEach((entry) -> auditedBeforeTheHandover
					.add(entry.action() + " " + entry.outcome() + " " + entry.connector()));
			return new ConnectorHandover("orders-cdc", "align", null, true, List.of(), List.of(), null, null, null,
					"stopped");
		};

		assertThat(this.healer.heal(this.target, List.of(lost("healed")))).isTrue();

		assertThat(auditedBeforeTheHandover)
			.containsExactly("slot.heal done orders-cdc: handover under way (audited as slot.handover when it ends)");
		assertThat(this.journal.entries()).extracting(AuditEntry::action).containsExactly("slot.handover", "slot.heal");
		AuditEntry handover = this.journal.entries().get(0);
		assertThat(handover.outcome()).isEqualTo("done");
		assertThat(handover.connector()).startsWith("orders-cdc");
		assertThat(handover.detail()).isEqualTo("after the heal of slot healed");
		assertThat(handover.lsns()).containsEntry("alignedTo", "0/200");
	}

	@Test
	void aHandoverThatFailsAfterTheSlotWasMadeIsAuditedAsAFailedHandoverAndTheHealStaysDone() {
		this.target.ownership().learnt(true);
		this.slots.recording.handover = (made) -> {
			throw new ProblemException(ProblemKind.CONNECTOR_RESTART_FAILED, "Kafka Connect refused the offsets");
		};

		List<String> told = new ArrayList<>();
		this.auditor.listen((happening) -> told.add(happening.reason()));

		assertThat(this.healer.heal(this.target, List.of(lost("healed")))).isTrue();

		assertThat(this.journal.entries()).extracting((entry) -> entry.action() + " " + entry.outcome())
			.containsExactly("slot.handover failed", "slot.heal done");
		assertThat(this.journal.entries().get(0).detail()).contains("Kafka Connect refused the offsets");
		assertThat(told).containsExactly("SlotLost", "SlotRecreated", "HandoverFailed");
	}

	@Test
	void aMissingSlotWhosePolicySaysSoIsCreatedAgainAsLastSeenAndAudited() {
		this.target.ownership().learnt(true);
		SlotSighting seen = new SlotSighting("10.0.0.5:5432", 1L, "pgoutput", "logical", "orders", false, false,
				"0/100", Instant.parse("2026-12-01T07:59:00Z"));
		List<SlotSightings.Missing> missing = List.of(
				new SlotSightings.Missing(this.target.slots().policy("returning").orElseThrow(), seen),
				new SlotSightings.Missing(this.target.slots().policy("watched").orElseThrow(), null));
		assertThat(this.healer.healMissing(this.target, missing)).isTrue();
		assertThat(this.slots.recording.missingCreated).as("only the one whose policy says on-missing: recreate")
			.containsExactly("returning");
		assertThat(this.journal.entries().get(0).parameters()).containsEntry("onMissing", "recreate");
		this.target.ownership().learnt(false);
		assertThat(this.healer.healMissing(this.target, missing)).as("a standby instance never heals").isFalse();
	}

	@Test
	void nothingIsRecreatedOnAStandbyInstanceForAnAlertPolicyOrForAHealthySlot() {
		this.target.ownership().learnt(false);
		assertThat(this.healer.heal(this.target, List.of(lost("healed")))).isFalse();
		this.target.ownership().learnt(true);
		ReplicationSlot healthy = ReplicationSlot.builder()
			.slotName("healed")
			.slotType("logical")
			.walStatus("reserved")
			.build();
		assertThat(this.healer.heal(this.target, List.of(lost("watched"), lost("unlisted"), healthy))).isFalse();
		assertThat(this.slots.recording.recreated).isEmpty();
		assertThat(this.journal.entries()).isEmpty();
	}

	@Test
	void pastItsHourlyBudgetHealingStopsSaysWhyOnceAndResumesAnHourLater() {
		this.target.ownership().learnt(true);
		this.healer.heal(this.target, List.of(lost("healed")));
		this.clock.advance(Duration.ofMinutes(10));
		this.healer.heal(this.target, List.of(lost("healed")));
		this.clock.advance(Duration.ofMinutes(10));
		assertThat(this.healer.heal(this.target, List.of(lost("healed")))).isFalse();
		this.healer.heal(this.target, List.of(lost("healed")));
		assertThat(this.slots.recording.recreated).hasSize(2);
		assertThat(this.budget.stopped("orders")).containsOnlyKeys("healed")
			.hasValueSatisfying(new org.assertj.core.api.Condition<>(
					(reason) -> reason.contains("recreated or tried 2 times in the last hour"), "names the count"));
		assertThat(this.journal.entries()).filteredOn((entry) -> entry.outcome().equals("refused"))
			.singleElement()
			.satisfies((refusal) -> assertThat(refusal.status()).isEqualTo(429));
		this.clock.advance(Duration.ofMinutes(41));
		assertThat(this.healer.heal(this.target, List.of(lost("healed")))).as("the first recreate left the hour")
			.isTrue();
		assertThat(this.budget.stopped("orders")).isEmpty();
	}

	@Test
	void aFailedHealBacksOffIsAuditedOnceAndCountsAgainstTheBudget() {
		this.target.ownership().learnt(true);
		this.slots.recording.failWith = new ProblemException(ProblemKind.INSUFFICIENT_PRIVILEGE, "permission denied");
		assertThat(this.healer.heal(this.target, List.of(lost("healed")))).isFalse();
		assertThat(this.journal.entries()).singleElement().satisfies((entry) -> {
			assertThat(entry.outcome()).isEqualTo("refused");
			assertThat(entry.status()).isEqualTo(403);
		});
		this.healer.heal(this.target, List.of(lost("healed")));
		assertThat(this.slots.recording.attempts).as("no retry before the backoff").isEqualTo(1);
		this.clock.advance(Duration.ofSeconds(31));
		this.healer.heal(this.target, List.of(lost("healed")));
		assertThat(this.slots.recording.attempts).isEqualTo(2);
		assertThat(this.journal.entries()).as("the same failure is not audited again").hasSize(1);
		this.clock.advance(Duration.ofSeconds(61));
		this.slots.recording.failWith = null;
		assertThat(this.healer.heal(this.target, List.of(lost("healed")))).as("two attempts used the hour's budget")
			.isFalse();
		assertThat(this.slots.recording.attempts).isEqualTo(2);
		assertThat(this.journal.entries().get(0).status()).isEqualTo(429);
	}

	@Test
	void aRetryThatSucceedsIsAuditedAndClearsTheBackoff() {
		this.target.ownership().learnt(true);
		this.slots.recording.failWith = new ProblemException(ProblemKind.TARGET_UNAVAILABLE,
				"Target 'orders' is unavailable");
		this.healer.heal(this.target, List.of(lost("healed")));
		this.slots.recording.failWith = null;
		this.clock.advance(Duration.ofSeconds(31));
		assertThat(this.healer.heal(this.target, List.of(lost("healed")))).isTrue();
		assertThat(this.journal.entries()).extracting(AuditEntry::outcome).containsExactly("done", "failed");
	}

	/**
	 * The slot service with its recreate recorded instead of run.
	 */
	private static final class RecordingSlots extends SlotService {

		final Recording recording = new Recording();

		RecordingSlots() {
			super(new ConnectorClient(RestClient.builder(), Duration.ofMillis(1), java.time.Clock.systemUTC()),
					new SimpleMeterRegistry(), java.time.Clock.systemUTC());
		}

		@Override
		public SlotRecreates recreates() {
			return this.recording;
		}

	}

	private static final class Recording extends SlotRecreates {

		final List<String> recreated = new ArrayList<>();

		final List<String> missingCreated = new ArrayList<>();

		int attempts;

		ProblemException failWith;

		// A connector's handover, run after the slot is made; none when null.
		Function<RecreateResult, ConnectorHandover> handover;

		@Override
		public RecreateResult recreateMissing(Target target, String slot, SlotSighting lastSeen,
				BeforeHandover beforeHandover) {
			this.missingCreated.add(slot);
			return recreate(target, null, slot, false, null, beforeHandover);
		}

		@Override
		public RecreateResult recreate(Target target, String node, String slot, boolean force, String ifMatch,
				BeforeHandover beforeHandover) {
			this.attempts++;
			if (this.failWith != null) {
				throw this.failWith;
			}
			this.recreated.add(slot);
			ReplicationSlot before = ReplicationSlot.builder()
				.slotName(slot)
				.slotType("logical")
				.confirmedFlushLsn("0/100")
				.build();
			RecreateResult made = new RecreateResult(SlotView.of("primary", before), SlotView.of("primary", before),
					new RecreateResult.SkippedRange("0/100", "0/200", 256L, null), null, null, null, null, null);
			if (this.handover == null) {
				return made;
			}
			beforeHandover.recreated(made, "orders-cdc");
			ConnectorHandover ended = this.handover.apply(made);
			return new RecreateResult(made.oldSlot(), made.newSlot(), made.skipped(), ended, null, null, null, null);
		}

	}

}
