package io.slotkeeper.outage;

import java.time.Instant;
import java.util.List;
import java.util.Set;

import org.junit.jupiter.api.Test;

import io.slotkeeper.replication.ReplicationSlot;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

class KeepSizeRaiseTests {

	private static final long MB = 1024 * 1024;

	private final KeepSizeRaise raise = new KeepSizeRaise("server", 64, "ALTER SYSTEM RESET max_slot_wal_keep_size",
			1024, List.of("cdc"), Instant.EPOCH, Instant.EPOCH, null);

	private static ReplicationSlot slot(String name, long retainedMegabytes, String walStatus) {
		return ReplicationSlot.builder()
			.slotName(name)
			.active(true)
			.walStatus(walStatus)
			.retainedWalBytes(retainedMegabytes * MB)
			.build();
	}

	private static ReplicationSlot unread(String name, long retainedMegabytes) {
		return ReplicationSlot.builder()
			.slotName(name)
			.active(false)
			.walStatus("extended")
			.retainedWalBytes(retainedMegabytes * MB)
			.build();
	}

	@Test
	void theValueIsNotPutBackWhileASlotAConsumerReadsRetainsFourFifthsOfItOrMore() {
		assertThat(this.raise.inTheWay(List.of(slot("cdc", 10, "reserved"), slot("other", 52, "extended")), Set.of()))
			.extracting(ReplicationSlot::slotName)
			.isEqualTo("other");
		assertThat(this.raise.inTheWay(List.of(slot("cdc", 83, "extended"), slot("other", 52, "extended")), Set.of()))
			.as("the one retaining most")
			.extracting(ReplicationSlot::slotName)
			.isEqualTo("cdc");
	}

	@Test
	void slotsThatRetainLessOrAreLostAreNotInTheWay() {
		assertThat(this.raise.inTheWay(List.of(slot("cdc", 51, "reserved"), slot("gone", 900, "lost")), Set.of()))
			.isNull();
	}

	@Test
	void aSlotNobodyReadsIsInTheWayOnlyWhereItsPolicyAskedForRoom() {
		List<ReplicationSlot> slots = List.of(slot("cdc", 10, "reserved"), unread("abandoned", 600));
		assertThat(this.raise.inTheWay(slots, Set.of())).as("no consumer, no on-outage: the limit's to decide")
			.isNull();
		assertThat(this.raise.leftToTheLimit(slots, Set.of())).containsExactly("abandoned");
		assertThat(this.raise.inTheWay(slots, Set.of("abandoned"))).as("on-outage asked room for it")
			.extracting(ReplicationSlot::slotName)
			.isEqualTo("abandoned");
		assertThat(this.raise.leftToTheLimit(slots, Set.of("abandoned"))).isEmpty();
	}

	@Test
	void anOperatorsValueIsWhatIsExpectedOnceYieldedTo() {
		assertThat(this.raise.expectedMegabytes()).isEqualTo(1024);
		assertThat(this.raise.yielded(200).expectedMegabytes()).isEqualTo(200);
		assertThat(this.raise.yielded(200).fromMegabytes()).isEqualTo(64);
	}

	@Test
	void aRecordedPutBackIsRunOnlyInTheFormsSlotKeeperWrites() {
		assertThat(new KeepSizeRaise("server", 64, "ALTER SYSTEM SET max_slot_wal_keep_size = '64MB'", 1024,
				List.of("cdc"), Instant.EPOCH, Instant.EPOCH, null)
			.restore()).endsWith("'64MB'");
		assertThatIllegalArgumentException().isThrownBy(
				() -> new KeepSizeRaise("server", 64, "ALTER SYSTEM SET max_slot_wal_keep_size = '64MB'; DROP TABLE x",
						1024, List.of("cdc"), Instant.EPOCH, Instant.EPOCH, null));
		assertThatIllegalArgumentException()
			.isThrownBy(() -> new KeepSizeRaise("server", 64, "ALTER SYSTEM SET shared_preload_libraries = 'evil'",
					1024, List.of("cdc"), Instant.EPOCH, Instant.EPOCH, null));
	}

}
