package io.slotkeeper.watching;

import java.time.Instant;
import java.util.List;

import org.junit.jupiter.api.Test;

import org.springframework.web.client.RestClient;

import io.slotkeeper.connect.ConnectorClient;
import io.slotkeeper.replication.ReplicationSlot;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A target that leaves the fleet (a server's retired database) is forgotten whole, so
 * that retired databases cost nothing and one that joins again under the same name starts
 * with nothing of its past.
 */
class SlotWatchTests {

	@Test
	void aTargetThatLeftIsForgottenAndTheOthersAreKept() {
		SlotWatch watch = new SlotWatch(
				new ConnectorClient(RestClient.builder(), java.time.Duration.ofMillis(1), java.time.Clock.systemUTC()),
				java.time.Clock.systemUTC());
		Instant now = Instant.now();
		List<ReplicationSlot> slots = List
			.of(ReplicationSlot.builder().slotName("cdc").slotType("logical").retainedWalBytes(4096L).build());
		watch.history().update("retired", slots, now);
		watch.history().update("kept", slots, now);
		assertThat(watch.history().of("retired", "cdc", now)).isPresent();

		watch.forget("retired");

		assertThat(watch.history().of("retired", "cdc", now)).isEmpty();
		assertThat(watch.history().of("kept", "cdc", now)).isPresent();
	}

}
