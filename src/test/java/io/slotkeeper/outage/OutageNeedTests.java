package io.slotkeeper.outage;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

import org.springframework.util.unit.DataSize;

import io.slotkeeper.config.ManagedBy;
import io.slotkeeper.config.OnFailed;
import io.slotkeeper.config.OnLost;
import io.slotkeeper.config.OnMissing;
import io.slotkeeper.config.OnOrphan;
import io.slotkeeper.config.OnOutageProperties;
import io.slotkeeper.config.ResnapshotProperties;
import io.slotkeeper.config.SlotPolicyProperties;
import io.slotkeeper.replication.ReplicationSlot;
import io.slotkeeper.replication.SlotBudget;
import io.slotkeeper.replication.SlotInsight;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Which slots need more WAL room: opted in, their consumer gone, their budget under their
 * threshold; the cap is the highest among them, as the setting is the server's.
 */
class OutageNeedTests {

	private static final List<ReplicationSlot> SLOTS = List.of(slot("a"), slot("b"), slot("c"), slot("d"));

	@Test
	void onlyOptedInSlotsUnderTheirThresholdNeedRoomAndTheHighestCapServesThem() {
		List<SlotPolicyProperties> policies = List.of(policy("a", "1GB", Duration.ofHours(1)),
				policy("b", "4GB", Duration.ofMinutes(30)), policy("c", "8GB", Duration.ofMinutes(10)));
		Map<String, SlotInsight> insights = Map.of("a", budget(600.0), "b", budget(1200.0), "c", budget(1200.0), "d",
				budget(1.0));
		OutageNeed need = OutageNeed.of(policies, SLOTS, (slot) -> insights.getOrDefault(slot, SlotInsight.NONE));
		assertThat(need.slots()).as("c's budget is above its 10 min; d did not opt in").containsExactly("a", "b");
		assertThat(need.capMegabytes()).isEqualTo(4096);
		assertThat(need.leastSeconds()).isEqualTo(600.0);
	}

	@Test
	void aSlotWithoutABudgetNeedsNothing() {
		// No budget while a consumer reads it; no secondsLeft without a WAL limit or a
		// rate yet.
		Map<String, SlotInsight> insights = Map.of("a", SlotInsight.NONE, "b", budget(null));
		OutageNeed need = OutageNeed.of(
				List.of(policy("a", "1GB", Duration.ofHours(1)), policy("b", "1GB", Duration.ofHours(1))), SLOTS,
				(slot) -> insights.getOrDefault(slot, SlotInsight.NONE));
		assertThat(need.isEmpty()).isTrue();
	}

	private static ReplicationSlot slot(String name) {
		return ReplicationSlot.builder().slotName(name).slotType("logical").active(false).build();
	}

	private static SlotInsight budget(Double secondsLeft) {
		return new SlotInsight(null, null, "inactive", null,
				new SlotBudget(Instant.EPOCH, 60, 1L << 26, 1000.0, secondsLeft), null);
	}

	private static SlotPolicyProperties policy(String name, String cap, Duration below) {
		return new SlotPolicyProperties(name, null, OnLost.ALERT, OnMissing.ALERT, OnOrphan.ALERT,
				ResnapshotProperties.of(ResnapshotProperties.Mode.NONE), 2,
				new OnOutageProperties(DataSize.parse(cap), below), OnFailed.ALERT, 6, ManagedBy.SLOT_KEEPER);
	}

}
