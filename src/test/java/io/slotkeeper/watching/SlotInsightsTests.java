package io.slotkeeper.watching;

import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import org.junit.jupiter.api.Test;

import io.slotkeeper.fleet.BeatLog.Beat;
import io.slotkeeper.fleet.Target;
import io.slotkeeper.replication.ReplicationSlot;
import io.slotkeeper.replication.SlotInsight;
import io.slotkeeper.replication.SlotPoll;

import static io.slotkeeper.testbed.TestTargets.fleet;
import static io.slotkeeper.testbed.TestTargets.target;
import static org.assertj.core.api.Assertions.assertThat;

class SlotInsightsTests {

	private static final Instant T0 = Instant.parse("2026-12-01T08:00:00Z");

	private final Target target = fleet(
			target("orders", "jdbc:postgresql://db/orders", "heartbeat.interval", "1s", "heartbeat.ack-intervals", "2"))
		.get("orders");

	private final SlotInsights insights = new SlotInsights();

	private static ReplicationSlot.Builder streaming(String name, String confirmed) {
		return ReplicationSlot.builder()
			.slotName(name)
			.slotType("logical")
			.plugin("pgoutput")
			.database("orders")
			.active(true)
			.activePid(100)
			.confirmedFlushLsn(confirmed);
	}

	private SlotInsight after(ReplicationSlot slot, Map<Integer, String> walsenders, Instant now) {
		this.insights.update(this.target, new SlotPoll(List.of(slot), "orders", walsenders, null), Optional.empty(),
				now);
		return this.insights.of("orders", slot.slotName());
	}

	@Test
	void aConsumerThatConfirmedTheBeatDueByNowAcknowledges() {
		this.target.beats().add(new Beat("0/1000", T0));
		this.target.beats().add(new Beat("0/2000", T0.plusSeconds(1)));
		this.target.beats().add(new Beat("0/3000", T0.plusSeconds(2)));
		SlotInsight insight = after(streaming("s", "0/2000").build(), Map.of(), T0.plusSeconds(3));
		assertThat(insight.heartbeatAcknowledged()).as("due: the beat 2 intervals ago, 0/2000").isTrue();
		assertThat(insight.lastAcknowledgedLsn()).isEqualTo("0/2000");
		assertThat(insight.diagnosis()).isEqualTo(SlotInsights.OK);
	}

	@Test
	void aConsumerBehindTheDueBeatIsNotConfirming() {
		this.target.beats().add(new Beat("0/1000", T0));
		this.target.beats().add(new Beat("0/2000", T0.plusSeconds(1)));
		SlotInsight insight = after(streaming("s", "0/1500").build(),
				Map.of(100,
						"START_REPLICATION SLOT \"s\" LOGICAL"
								+ " 0/0 (proto_version '4', publication_names 'pub', messages 'true')"),
				T0.plusSeconds(3));
		assertThat(insight.heartbeatAcknowledged()).isFalse();
		assertThat(insight.lastAcknowledgedLsn()).isEqualTo("0/1000");
		assertThat(insight.diagnosis()).isEqualTo(SlotInsights.NOT_CONFIRMING);
	}

	@Test
	void aPgoutputConsumerThatDidNotAskForMessagesIsToldToUseTableMode() {
		this.target.beats().add(new Beat("0/1000", T0));
		SlotInsight insight = after(streaming("s", "0/0").build(),
				Map.of(100,
						"START_REPLICATION SLOT \"s\" LOGICAL" + " 0/0 (proto_version '4', publication_names 'pub')"),
				T0.plusSeconds(3));
		assertThat(insight.diagnosis()).isEqualTo(SlotInsights.NO_MESSAGES);
	}

	@Test
	void anInactiveSlotIsSaidToBeInactiveAndNothingIsKnownBeforeABeatIsDue() {
		assertThat(after(streaming("s", "0/0").active(false).build(), Map.of(), T0).diagnosis())
			.isEqualTo(SlotInsights.INACTIVE);
		SlotInsight early = after(streaming("s", "0/0").build(), Map.of(), T0);
		assertThat(early.heartbeatAcknowledged()).isNull();
		assertThat(early.diagnosis()).isNull();
	}

	@Test
	void anInvalidatedSlotSaysWhyInTheServersWords() {
		assertThat(after(streaming("s", "0/0").active(false).walStatus("lost").build(), Map.of(), T0).diagnosis())
			.as("before 17 the server only says lost")
			.isEqualTo("invalidated: wal_removed");
		assertThat(
				after(streaming("s", "0/0").active(false).walStatus("lost").invalidationReason("idle_timeout").build(),
						Map.of(), T0)
					.diagnosis())
			.as("PostgreSQL 18's idle_replication_slot_timeout")
			.isEqualTo("invalidated: idle_timeout");
	}

	@Test
	void aSlotOfAnotherDatabaseGetsNoHeartbeatVerdict() {
		this.target.beats().add(new Beat("0/1000", T0));
		SlotInsight insight = after(streaming("s", "0/0").database("billing").build(), Map.of(), T0.plusSeconds(3));
		assertThat(insight.heartbeatAcknowledged()).isNull();
		assertThat(insight.diagnosis()).isNull();
	}

	@Test
	void timeToLossFollowsTheRateSafeWalSizeShrinks() {
		ReplicationSlot.Builder slot = streaming("s", "0/0").active(false);
		assertThat(after(slot.safeWalSizeBytes(10_000_000L).build(), Map.of(), T0).secondsToLoss())
			.as("one sample is no rate")
			.isNull();
		assertThat(after(slot.safeWalSizeBytes(9_000_000L).build(), Map.of(), T0.plusSeconds(10)).secondsToLoss())
			.as("1 MB lost in 10 s, 9 MB left")
			.isEqualTo(90.0);
		assertThat(after(slot.safeWalSizeBytes(9_500_000L).build(), Map.of(), T0.plusSeconds(20)).secondsToLoss())
			.as("measured from the oldest sample of the last minute")
			.isEqualTo(380.0);
		assertThat(after(slot.safeWalSizeBytes(null).build(), Map.of(), T0.plusSeconds(30)).secondsToLoss())
			.as("unlimited")
			.isNull();
	}

}
