package io.slotkeeper.slot.changing;

import java.time.Duration;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import org.springframework.web.client.RestClient;

import io.slotkeeper.config.ConnectorProperties;
import io.slotkeeper.connect.ConnectorClient;
import io.slotkeeper.connect.ConnectorLifecycle;
import io.slotkeeper.handover.ConnectorHandovers;
import io.slotkeeper.handover.Handover;
import io.slotkeeper.handover.HandoverLog;
import io.slotkeeper.handover.PendingHandovers;
import io.slotkeeper.problem.ProblemException;
import io.slotkeeper.problem.ProblemKind;
import io.slotkeeper.resnapshot.Resnapshots;
import io.slotkeeper.testbed.ConnectStub;
import io.slotkeeper.testbed.TestTargets;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * A recreate that fails after the connector was stopped leaves the connector running as
 * it was: resumed, its offsets untouched, the failure passed on.
 */
class RecreateFollowUpTests {

	private final ConnectStub connect = new ConnectStub();

	private final ConnectorClient client = new ConnectorClient(RestClient.builder(), Duration.ofMillis(10),
			java.time.Clock.systemUTC());

	private final ConnectorHandovers handovers = new ConnectorHandovers(this.client, new HandoverLog(),
			java.time.Clock.systemUTC());

	private final RecreateFollowUp followUp = new RecreateFollowUp(this.handovers,
			new Resnapshots(new ConnectorLifecycle(this.client), io.slotkeeper.gap.ClosedGaps.NONE,
					new SimpleMeterRegistry(), java.time.Clock.systemUTC()),
			new PendingHandovers(java.time.Clock.systemUTC()), new SimpleMeterRegistry(),
			new io.slotkeeper.gap.GapJournals(io.slotkeeper.config.GapJournalProperties.off(),
					new SimpleMeterRegistry(), java.time.Clock.systemUTC()),
			java.time.Clock.systemUTC());

	@AfterEach
	void stop() {
		this.connect.close();
	}

	@Test
	void aRecreateThatFailsAfterTheStopResumesTheConnectorWithItsOffsetsUntouched() {
		String stored = "[{\"partition\":{\"server\":\"orders\"},\"offset\":{\"lsn\":100}}]";
		this.connect.offsets(stored);
		Handover handover = this.handovers
			.plan(TestTargets.bind(ConnectorProperties.class, "url", this.connect.url(), "name", "orders-cdc"));
		assertThatThrownBy(() -> this.followUp.guarded(handover, () -> {
			handover.readAndStop();
			throw new ProblemException(ProblemKind.DATABASE_ERROR, "the create failed");
		})).hasMessage("the create failed");
		assertThat(this.connect.stopped()).as("resumed").isFalse();
		assertThat(this.connect.offsets()).isEqualTo(stored);
		assertThat(this.connect.changes()).extracting(ConnectStub.Request::path)
			.containsExactly("/connectors/orders-cdc/stop", "/connectors/orders-cdc/resume");
	}

}
