package io.slotkeeper.soak;

import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The soak's own count of a gap's deletes: a delete is placed in the gap by the WAL
 * positions around its commit, never by slot-keeper's word.
 */
class JournaledDeletesTests {

	// Deletes committed between their two positions: before the gap, in it, across its
	// start, after it.
	private static final SoakVerdict.Truth TRUTH = new SoakVerdict.Truth(Map.of(),
			Map.of(1L, new long[] { 0, 0, 0x100, 0x180 }, 2L, new long[] { 0, 0, 0x300, 0x380 }, 3L,
					new long[] { 0, 0, 0x1F0, 0x260 }, 4L, new long[] { 0, 0, 0x900, Long.MAX_VALUE }));

	@Test
	void aGapCountsTheDeletesCommittedWithinItAndThoseAtItsEdgeEitherWay() {
		assertThat(check(1)).extracting(JournaledDeletes::certain, JournaledDeletes::edges).containsExactly(1L, 1L);
		assertThat(check(1).agree()).isTrue();
		assertThat(check(2).agree()).isTrue();
	}

	@Test
	void aJournalThatCountsMoreOrFewerThanTheHarnessDisagrees() {
		assertThat(check(0).agree()).isFalse();
		assertThat(check(3).agree()).isFalse();
	}

	@Test
	void onlyExactGapsOfAKnownTargetAreChecked() {
		List<InstanceLogs.Loss> losses = List.of(loss("t", "incomplete (x)", 1), loss("other", "exact", 1),
				new InstanceLogs.Loss("t", null, null, null, null, -1));

		assertThat(JournaledDeletes.of(losses, Map.of("t", TRUTH))).isEmpty();
	}

	@Test
	void aHealsAuditLineGivesItsGapsBoundsAndItsDeletesOfOrders() {
		InstanceLogs.Loss loss = InstanceLogs.Loss
			.of("t", "audit action=slot.heal target=t outcome=done detail={gap:exact,"
					+ " 0/3C8B950 to 0/7047DD8: public.deleted_orders 17 inserted; public.orders 249 inserted, 17 deleted}");
		InstanceLogs.Loss quiet = InstanceLogs.Loss.of("t", "detail={gap:exact, 0/10 to 0/20: nothing changed}");

		assertThat(loss).extracting(InstanceLogs.Loss::journaled, InstanceLogs.Loss::from, InstanceLogs.Loss::to)
			.containsExactly("exact", "0/3C8B950", "0/7047DD8");
		assertThat(loss.changed()).containsExactly(249, 0, 17);
		assertThat(quiet.to()).isEqualTo("0/20");
		assertThat(quiet.changed()).containsExactly(0, 0, 0);
	}

	private static JournaledDeletes check(long journaled) {
		return JournaledDeletes.of(List.of(loss("t", "exact", journaled)), Map.of("t", TRUTH)).get(0);
	}

	private static InstanceLogs.Loss loss(String target, String journaled, long deleted) {
		return new InstanceLogs.Loss(target, journaled, "0/200", "0/800", new long[] { 0, 0, deleted }, -1);
	}

}
