package io.slotkeeper.handover;

import java.time.Duration;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import org.springframework.web.client.RestClient;

import io.slotkeeper.connect.ChosenState;
import io.slotkeeper.connect.ConnectorClient;
import io.slotkeeper.testbed.ConnectStub;
import io.slotkeeper.testbed.RefusedPort;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalStateException;

/**
 * How a connector is handed over to a recreated slot, against a Kafka Connect stand-in
 * that keeps the connector's lifecycle and offsets as Kafka Connect 3.6+ does: aligned,
 * reset or left alone; and a task that fails once resumed is reported at once, not after
 * the whole running-timeout.
 */
class ConnectorHandoversTests {

	private static final String STORED = "[{\"partition\":{\"server\":\"orders\"},\"offset\":{\"lsn\":100,\"txId\":7}}]";

	private final ConnectStub connect = new ConnectStub();

	private final ConnectorHandovers handovers = new ConnectorHandovers(
			new ConnectorClient(RestClient.builder(), Duration.ofMillis(10), java.time.Clock.systemUTC()),
			new HandoverLog(), java.time.Clock.systemUTC());

	@AfterEach
	void stop() {
		this.connect.close();
	}

	@Test
	void alignPointsEveryStoredPartitionAtTheNewSlotAndWaitsUntilItRuns() {
		this.connect.offsets(STORED);
		Handover handover = this.handovers.plan(ConnectStub.connector(this.connect.url()));
		assertThat(handover.phase()).isInstanceOf(HandoverPhase.Planned.class);
		handover.readAndStop();
		assertThat(this.connect.stopped()).isTrue();
		assertThat(handover.phase()).isInstanceOfSatisfying(HandoverPhase.Stopped.class,
				(stopped) -> assertThat(stopped.chosen()).isEqualTo(ChosenState.RUNNING));
		ConnectorHandover done = this.handovers.complete(handover, 4096L);
		assertThat(done.method()).isEqualTo("align");
		assertThat(done.completedFrom()).isEqualTo("stopped");
		assertThat(done.describe()).isEqualTo("orders-cdc: align, RUNNING, from phase stopped");
		assertThat(handover.phase()).isInstanceOfSatisfying(HandoverPhase.Completed.class,
				(completed) -> assertThat(completed.outcome()).isSameAs(done));
		int asked = this.connect.requests().size();
		assertThatIllegalStateException().as("completed twice").isThrownBy(() -> this.handovers.complete(handover, 1L));
		assertThat(this.connect.requests()).as("nothing asked of Kafka Connect by the refused completion")
			.hasSize(asked);
		assertThat(done.running()).isTrue();
		assertThat(done.warning()).isNull();
		assertThat(done.offsetsBefore()).singleElement()
			.extracting((entry) -> entry.get("offset").toString())
			.asString()
			.contains("lsn=100");
		assertThat(this.connect.offsets())
			.contains("\"partition\":{\"server\":\"orders\"}", "\"lsn\":4096", "\"lsn_proc\":4096")
			.doesNotContain("txId");
		assertThat(done.offsetsAfter()).singleElement()
			.extracting((entry) -> entry.get("offset").toString())
			.asString()
			.contains("lsn=4096");
		assertThat(this.connect.stopped()).isFalse();
	}

	@Test
	void alignWithNothingStoredNamesThePartitionFromTopicPrefix() {
		this.connect.config("{\"topic.prefix\":\"shop\"}");
		Handover handover = this.handovers.plan(ConnectStub.connector(this.connect.url()));
		handover.readAndStop();
		assertThat(this.handovers.complete(handover, 16L).running()).isTrue();
		assertThat(this.connect.offsets()).contains("\"partition\":{\"server\":\"shop\"}", "\"lsn\":16");
	}

	@Test
	void aConnectorResumedBehindSlotKeepersBackBetweenStopAndOffsetsSaysToConfigureItsStrimziResource()
			throws Exception {
		this.connect.offsets(STORED);
		Handover handover = this.handovers.plan(ConnectStub.connector(this.connect.url(), "running-timeout", "2s"));
		handover.readAndStop();
		// The Strimzi operator's reconcile: the connector back to its resource's
		// spec.state, through the REST API.
		java.net.http.HttpClient.newHttpClient()
			.send(java.net.http.HttpRequest
				.newBuilder(java.net.URI.create(this.connect.url() + "/connectors/orders-cdc/resume"))
				.PUT(java.net.http.HttpRequest.BodyPublishers.noBody())
				.build(), java.net.http.HttpResponse.BodyHandlers.discarding());
		this.connect.scriptStatus(new ConnectStub.Answer(200,
				"{\"name\":\"orders-cdc\",\"connector\":{\"state\":" + "\"STOPPED\"},\"tasks\":[]}"));
		ConnectorHandover done = this.handovers.complete(handover, 4096L);
		assertThat(done.warning()).contains("offsets not changed")
			.contains("STOPPED state")
			.contains("its operator reverts state changes made through the REST API")
			.contains("configure connector.strimzi");
		assertThat(this.connect.offsets()).isEqualTo(STORED);
	}

	@Test
	void aKafkaConnectThatDoesNotAnswerLeavesTheHandoverUnreachableAndItsOutcomePendingWithNothingChanged() {
		Handover handover = this.handovers.plan(ConnectStub.connector("http://127.0.0.1:" + RefusedPort.PORT));
		handover.readAndStop();
		assertThat(handover.phase()).isInstanceOf(HandoverPhase.Unreachable.class);
		assertThat(handover.unreachable()).isNotBlank();
		assertThat(handover.stopped()).isFalse();
		ConnectorHandover done = this.handovers.complete(handover, 4096L);
		assertThat(done.pending()).isTrue();
		assertThat(done.completedFrom()).isEqualTo("unreachable");
		assertThat(done.warning()).contains("the handover is kept and completed once Kafka Connect answers");
	}

	@Test
	void resetDeletesTheOffsets() {
		this.connect.offsets(STORED);
		Handover handover = this.handovers.plan(ConnectStub.connector(this.connect.url(), "offsets", "reset"));
		handover.readAndStop();
		ConnectorHandover done = this.handovers.complete(handover, 4096L);
		assertThat(done.method()).isEqualTo("reset");
		assertThat(this.connect.offsets()).isEqualTo("[]");
		assertThat(this.connect.changes()).extracting(ConnectStub.Request::method)
			.containsExactly("PUT", "DELETE", "PUT");
	}

	@Test
	void leaveOnlyRestarts() {
		this.connect.offsets(STORED);
		Handover handover = this.handovers.plan(ConnectStub.connector(this.connect.url(), "offsets", "leave"));
		handover.readAndStop();
		assertThat(handover.phase().name()).isEqualTo("left-alone");
		ConnectorHandover done = this.handovers.complete(handover, 4096L);
		assertThat(done.method()).isEqualTo("restart");
		assertThat(done.completedFrom()).isEqualTo("left-alone");
		assertThat(done.warning()).isNull();
		assertThat(this.connect.changes()).extracting(ConnectStub.Request::path)
			.containsExactly("/connectors/orders-cdc/restart");
		assertThat(this.connect.offsets()).isEqualTo(STORED);
	}

	@Test
	void aTaskThatFailsOnceResumedIsReportedWithItsTraceWithoutWaitingTheWholeTimeout() {
		Handover handover = this.handovers.plan(ConnectStub.connector(this.connect.url(), "running-timeout", "10m"));
		handover.readAndStop();
		long readBefore = statusReads();
		this.connect.status("{\"name\":\"x\",\"connector\":{\"state\":\"RUNNING\"},\"tasks\":[{\"id\":0,\"state\":"
				+ "\"FAILED\",\"trace\":\"io.debezium.DebeziumException: no longer available on the server\\n\\tat x\"}]}");
		ConnectorHandover done = this.handovers.complete(handover, 4096L);
		assertThat(statusReads() - readBefore)
			.as("the failed task ends the wait at its first status read after the" + " resume")
			.isLessThanOrEqualTo(2);
		assertThat(done.running()).isFalse();
		assertThat(done.describe()).contains("not running", "task 0 FAILED",
				"io.debezium.DebeziumException: no longer available on the server");
	}

	private long statusReads() {
		return this.connect.requests().stream().filter((request) -> request.path().endsWith("/status")).count();
	}

}
