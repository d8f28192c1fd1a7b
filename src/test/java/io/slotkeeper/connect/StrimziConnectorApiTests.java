package io.slotkeeper.connect;

import java.io.IOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import org.springframework.web.client.RestClient;

import io.slotkeeper.config.ConnectorProperties;
import io.slotkeeper.config.StrimziProperties;
import io.slotkeeper.config.StrimziStatusFrom;
import io.slotkeeper.testbed.ConnectStub;
import io.slotkeeper.testbed.RefusedPort;
import io.slotkeeper.testbed.StrimziOperator;
import io.slotkeeper.testbed.StrimziResources;
import io.slotkeeper.testbed.TestTargets;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A connector reached through its Strimzi {@code KafkaConnector} resource, on a
 * Kubernetes API stand-in whose operator emulation reconciles it to a Kafka Connect REST
 * stand-in: every change goes through the resource and the operator, none through
 * Connect's REST API.
 */
class StrimziConnectorApiTests {

	static final String TOKEN = "service-account-token";

	private final ConnectStub connect = new ConnectStub();

	private final StrimziResources api = new StrimziResources(TOKEN, "v1", "v1beta2");

	private StrimziOperator operator;

	private final ConnectorProperties connector = TestTargets.bind(ConnectorProperties.class, "strimzi.namespace",
			"cdc", "strimzi.name", "orders-cdc", "running-timeout", "10s");

	@TempDir
	Path directory;

	@AfterEach
	void stop() {
		if (this.operator != null) {
			this.operator.close();
		}
		this.api.close();
		this.connect.close();
	}

	private ConnectorClient client(String apiServer) throws IOException {
		return client(this.directory, apiServer, StrimziStatusFrom.RESOURCE);
	}

	static ConnectorClient client(Path directory, String apiServer, StrimziStatusFrom statusFrom) throws IOException {
		Path token = Files.writeString(directory.resolve("token"), TOKEN);
		RestConnectorApi rest = new RestConnectorApi(RestClient.builder(), Duration.ofMillis(10),
				java.time.Clock.systemUTC());
		return new ConnectorClient(rest,
				new StrimziConnectorApi(new StrimziProperties(URI.create(apiServer), token,
						directory.resolve("no-ca.crt"), Duration.ofSeconds(2), "", statusFrom), rest,
						java.time.Clock.systemUTC()));
	}

	private ConnectorClient reconciled() throws IOException {
		this.operator = new StrimziOperator(this.api, this.connect.url(), Duration.ofSeconds(30));
		this.api.createConnector("cdc", "orders-cdc",
				Map.of("class", "io.debezium.connector.postgresql.PostgresConnector", "config",
						Map.of("topic.prefix", "shop", "offset.mismatch.strategy", "no_validation")));
		return client(this.api.url());
	}

	@Test
	void aStopSetsSpecStateAndTheResumePutsBackTheStateItHad() throws IOException {
		ConnectorClient client = reconciled();
		ConnectorLifecycle lifecycle = new ConnectorLifecycle(client);
		assertThat(lifecycle.stop(this.connector).ok()).isTrue();
		assertThat(spec()).containsEntry("state", "stopped");
		assertThat(annotations()).as("the resource had no spec.state")
			.containsEntry(StrimziStates.STATE_BEFORE_STOP, "unset");
		org.awaitility.Awaitility.await()
			.atMost(Duration.ofSeconds(10))
			.until(() -> "STOPPED".equals(client.status(this.connector).state()));
		assertThat(this.connect.stopped()).isTrue();
		assertThat(lifecycle.chosenState(this.connector)).as("the user's, not slot-keeper's stop")
			.isEqualTo(ChosenState.RUNNING);
		assertThat(lifecycle.restore(this.connector, ChosenState.RUNNING).ok()).isTrue();
		assertThat(spec()).as("put back as it was: without spec.state").doesNotContainKey("state");
		assertThat(annotations()).doesNotContainKey(StrimziStates.STATE_BEFORE_STOP);
		org.awaitility.Awaitility.await().atMost(Duration.ofSeconds(10)).until(() -> !this.connect.stopped());
		assertThat(this.connect.requests()).noneMatch((request) -> request.method().equals("PATCH"));
	}

	@Test
	void aUsersChangeBetweenSlotKeepersReadAndItsStopIsKeptAndPutBackNotOverwritten() throws IOException {
		ConnectorClient client = reconciled();
		ConnectorLifecycle lifecycle = new ConnectorLifecycle(client);
		// The user's GitOps pauses the connector after slot-keeper read it running.
		this.api.beforeNextPatch(() -> this.api.createConnector("cdc", "orders-cdc",
				Map.of("class", "io.debezium.connector.postgresql.PostgresConnector", "state", "paused", "config",
						Map.of("topic.prefix", "shop", "offset.mismatch.strategy", "no_validation"))));

		assertThat(lifecycle.stop(this.connector).ok()).isTrue();

		assertThat(this.api.calls()).filteredOn((call) -> call.startsWith("PATCH "))
			.as("the first patch refused (409), made again from the resource as it is now")
			.hasSize(2);
		assertThat(annotations()).as("the state kept is the user's latest, not the one read before it")
			.containsEntry(StrimziStates.STATE_BEFORE_STOP, "paused");
		assertThat(lifecycle.restore(this.connector, ChosenState.RUNNING).ok()).isTrue();
		assertThat(spec()).as("the user's pause stands").containsEntry("state", "paused");
	}

	@Test
	void aConnectorItsUserStoppedIsLeftStoppedAfterSlotKeepersOwnStop() throws IOException {
		ConnectorClient client = reconciled();
		this.api.createConnector("cdc", "orders-cdc",
				Map.of("class", "io.debezium.connector.postgresql.PostgresConnector", "state", "stopped", "config",
						Map.of("topic.prefix", "shop")));
		ConnectorLifecycle lifecycle = new ConnectorLifecycle(client);
		assertThat(lifecycle.chosenState(this.connector)).isEqualTo(ChosenState.STOPPED);
		assertThat(lifecycle.stop(this.connector).ok()).isTrue();
		assertThat(lifecycle.chosenState(this.connector)).as("read again mid-handover").isEqualTo(ChosenState.STOPPED);
		assertThat(lifecycle.restore(this.connector, ChosenState.STOPPED).ok()).isTrue();
		assertThat(spec()).containsEntry("state", "stopped");
		assertThat(annotations()).doesNotContainKey(StrimziStates.STATE_BEFORE_STOP);
	}

	@Test
	void theDeprecatedSpecPauseCountsAsPausedWhereSpecStateSaysNothing() {
		assertThat(StrimziStates.chosenState(KafkaConnectorResource.of(Map.of("spec", Map.of("pause", true)))))
			.isEqualTo(ChosenState.PAUSED);
		assertThat(StrimziStates
			.chosenState(KafkaConnectorResource.of(Map.of("spec", Map.of("pause", true, "state", "running")))))
			.as("spec.state wins")
			.isEqualTo(ChosenState.RUNNING);
		assertThat(StrimziStates
			.chosenState(KafkaConnectorResource.of(Map.of("spec", Map.of("pause", true, "state", "stopped"), "metadata",
					Map.of("annotations", Map.of(StrimziStates.STATE_BEFORE_STOP, "unset"))))))
			.as("slot-keeper's stop over the user's pause")
			.isEqualTo(ChosenState.PAUSED);
		assertThat(StrimziStates.chosenState(KafkaConnectorResource.of(Map.of("spec", Map.of()))))
			.isEqualTo(ChosenState.RUNNING);
	}

	@Test
	void theConfigurationIsTheResourcesSpecWithItsClassAndTheDryRunNamesTheResource() throws IOException {
		ConnectorClient client = reconciled();
		Map<String, Object> config = new ConnectorLifecycle(client).config(this.connector).object();
		assertThat(config).containsEntry("topic.prefix", "shop")
			.containsEntry("connector.class", "io.debezium.connector.postgresql.PostgresConnector");
		assertThat(new io.slotkeeper.handover.ConnectorHandovers(client, new io.slotkeeper.handover.HandoverLog(),
				java.time.Clock.systemUTC())
			.plan(this.connector)
			.describe())
			.allSatisfy((step) -> assertThat(step).contains("orders-cdc (through its KafkaConnector cdc/orders-cdc)"));
	}

	@Test
	void offsetsAreListedAndAlteredThroughSlotKeepersConfigMapAndTheAnnotationTheOperatorRemoves() throws IOException {
		this.connect.offsets("[{\"partition\":{\"server\":\"shop\"},\"offset\":{\"lsn\":100}}]");
		ConnectorLifecycle lifecycle = new ConnectorLifecycle(reconciled());
		assertThat(lifecycle.lastKnownOffsets(this.connector)).as("nothing listed yet: a listing changes nothing")
			.isNull();
		assertThat(ConnectorLifecycle.entries(lifecycle.offsets(this.connector).body())).singleElement()
			.satisfies((entry) -> assertThat(entry.toString()).contains("server=shop").contains("lsn=100"));
		assertThat(lifecycle.lastKnownOffsets(this.connector)).as("what the listing left").hasSize(1);
		assertThat(lifecycle.stop(this.connector).ok()).isTrue();
		org.awaitility.Awaitility.await().atMost(Duration.ofSeconds(10)).until(this.connect::stopped);
		ConnectorLifecycle.Answer altered = lifecycle.alterOffsets(this.connector, Map.of("offsets",
				List.of(Map.of("partition", Map.of("server", "shop"), "offset", Map.of("lsn", 4242)))));
		assertThat(altered.ok()).as(String.valueOf(altered.error())).isTrue();
		assertThat(this.connect.offsets()).contains("4242");
		assertThat(annotations()).doesNotContainKey(StrimziOffsets.OFFSETS_ANNOTATION);
		assertThat(this.api.configMap("cdc", "orders-cdc-slotkeeper-offsets").toString())
			.contains("app.kubernetes.io/managed-by=slot-keeper")
			.contains("4242");
	}

	@Test
	void anAlterTheOperatorRefusesIsAnErrorWithItsWarningAndTheAnnotationIsWithdrawn() throws IOException {
		ConnectorLifecycle.Answer altered = new ConnectorLifecycle(reconciled()).alterOffsets(this.connector,
				Map.of("offsets", List.of()));
		assertThat(altered.ok()).isFalse();
		assertThat(altered.unreachable()).isFalse();
		assertThat(altered.error()).contains("the Strimzi operator refused alter").contains("not in the STOPPED state");
		assertThat(annotations()).doesNotContainKey(StrimziOffsets.OFFSETS_ANNOTATION);
		assertThat(this.connect.offsets()).isEqualTo("[]");
	}

	@Test
	void aWarningFromAnOperatorWhoseClockIsBehindIsNotIgnored() throws IOException {
		ConnectorClient client = reconciled();
		this.operator.clockBehind(Duration.ofMinutes(5));
		long asked = System.nanoTime();
		ConnectorLifecycle.Answer altered = new ConnectorLifecycle(client).alterOffsets(this.connector,
				Map.of("offsets", List.of()));
		assertThat(altered.error()).contains("the Strimzi operator refused alter").contains("not in the STOPPED state");
		assertThat(Duration.ofNanos(System.nanoTime() - asked)).as("seen at once, not after running-timeout")
			.isLessThan(Duration.ofSeconds(10));
	}

	@Test
	void aRestartOfAConnectorWithAutoRestartIsAStopAndStartThatTheOperatorNeverCountsAsItsOwn() throws IOException {
		this.operator = new StrimziOperator(this.api, this.connect.url(), Duration.ofSeconds(30));
		this.api.createConnector("cdc", "orders-cdc",
				Map.of("class", "io.debezium.connector.postgresql.PostgresConnector", "config",
						Map.of("topic.prefix", "shop"), "autoRestart", Map.of("enabled", true)));
		ConnectorClient client = client(this.api.url());
		org.awaitility.Awaitility.await()
			.atMost(Duration.ofSeconds(10))
			.until(() -> "RUNNING".equals(client.status(this.connector).state()));
		// The task fails on the lost slot; the operator's next reconcile is the one
		// slot-keeper's change causes. Once
		// stopped and started again, it runs.
		this.connect.status("{\"name\":\"orders-cdc\",\"connector\":{\"state\":\"RUNNING\"},\"tasks\":[{\"id\":0,"
				+ "\"state\":\"FAILED\",\"trace\":\"io.debezium.DebeziumException: no longer available\"}]}");
		this.connect.onStop(() -> this.connect.status("{\"name\":\"orders-cdc\",\"connector\":{\"state\":"
				+ "\"RUNNING\"},\"tasks\":[{\"id\":0,\"state\":\"RUNNING\"}]}"));
		assertThat(client.autoRestarts(this.connector)).isZero();

		ConnectorOutcome restart = client.restart(this.connector);

		assertThat(restart.restarted()).as(String.valueOf(restart.detail())).isTrue();
		org.awaitility.Awaitility.await()
			.atMost(Duration.ofSeconds(10))
			.until(() -> "RUNNING".equals(client.status(this.connector).state()) && client.status(this.connector)
				.tasks()
				.stream()
				.allMatch((task) -> "RUNNING".equals(task.state())));
		assertThat(this.operator.autoRestarts()).as("the operator restarted nothing on its own").isZero();
		assertThat(client.autoRestarts(this.connector)).as("status.autoRestart.count as it was").isZero();
		assertThat(this.connect.changes()).extracting(ConnectStub.Request::path)
			.containsSubsequence("/connectors/orders-cdc/stop", "/connectors/orders-cdc/resume")
			.noneMatch((path) -> path.endsWith("/restart"));
		assertThat(spec()).as("spec.state put back as it was: unset").doesNotContainKey("state");
		assertThat(annotations()).isEmpty();
	}

	@Test
	void aConnectTheOperatorCannotReachMakesTheHandoverWaitRatherThanFail() throws IOException {
		this.connect.close();
		ConnectorClient client = reconciled();
		org.awaitility.Awaitility.await()
			.atMost(Duration.ofSeconds(10))
			.until(() -> client.status(this.connector).error() != null);
		ConnectorLifecycle.Answer listed = new ConnectorLifecycle(client).offsets(this.connector);
		assertThat(listed.unreachable()).isTrue();
		assertThat(listed.error())
			.contains("the Strimzi operator cannot reach Kafka Connect for KafkaConnector" + " cdc/orders-cdc")
			.contains("NotReady");
		assertThat(client.restart(this.connector).status()).as("a restart waits too").isNull();
	}

	@Test
	void aWorkerThatGoesDownBeforeTheOperatorNoticesStillMakesTheRestartWaitAndLeavesNoAnnotation() throws IOException {
		ConnectorClient client = reconciled();
		org.awaitility.Awaitility.await()
			.atMost(Duration.ofSeconds(10))
			.until(() -> "RUNNING".equals(client.status(this.connector).state()));
		this.connect.close();
		ConnectorOutcome restart = client.restart(this.connector);
		assertThat(restart.status()).as("not reached: a handover waits").isNull();
		assertThat(restart.detail()).contains("the Strimzi operator cannot reach Kafka Connect");
		assertThat(annotations()).doesNotContainKeys("strimzi.io/restart", "strimzi.io/restart-task");
	}

	@Test
	void aRestartTheOperatorDoesNotActOnInTimeIsWithdrawnAndLeavesNothingOfSlotKeepersOnTheResource()
			throws IOException {
		this.api.createConnector("cdc", "orders-cdc", Map.of("config", Map.of()));
		ConnectorProperties quick = TestTargets.bind(ConnectorProperties.class, "strimzi.namespace", "cdc",
				"strimzi.name", "orders-cdc", "running-timeout", "1s");
		ConnectorOutcome restart = client(this.api.url()).restart(quick);
		assertThat(restart.restarted()).isFalse();
		assertThat(restart.detail()).contains("the Strimzi operator did not act on KafkaConnector cdc/orders-cdc");
		assertThat(annotations()).as("no restart left to fire at a later reconcile, no refreshed-at")
			.doesNotContainKeys("strimzi.io/restart", "strimzi.io/restart-task", StrimziOperatorWaits.REFRESHED_AT);
	}

	@Test
	void theVersionServedIsUsedAndAMissingRoleIsNamed() throws IOException {
		try (StrimziResources old = new StrimziResources(TOKEN, "v1beta2")) {
			old.createConnector("cdc", "orders-cdc", Map.of("config", Map.of()));
			ConnectorClient client = client(old.url());
			assertThat(new ConnectorLifecycle(client).config(this.connector).ok()).isTrue();
			assertThat(old.calls())
				.contains("GET /apis/kafka.strimzi.io/v1beta2/namespaces/cdc/kafkaconnectors/orders-cdc");
			old.forbid("cdc");
			ConnectorLifecycle.Answer refused = new ConnectorLifecycle(client).stop(this.connector);
			assertThat(refused.unreachable()).isFalse();
			assertThat(refused.error()).contains("403").contains("connectors.strimzi.namespaces").doesNotContain(TOKEN);
		}
	}

	@Test
	void anApiServerThatFailsOrThrottlesIsUnreachableAndOneThatRefusesIsNot() throws IOException {
		ConnectorClient client = reconciled();
		ConnectorLifecycle lifecycle = new ConnectorLifecycle(client);
		for (int status : new int[] { 500, 503, 429 }) {
			this.api.failWith(status);
			ConnectorLifecycle.Answer config = lifecycle.config(this.connector);
			assertThat(config.unreachable()).as("answered %d", status).isTrue();
			assertThat(config.error()).contains("answered " + status);
		}
		this.api.failWith(401);
		assertThat(lifecycle.config(this.connector).unreachable()).as("a refusal").isFalse();
		this.api.failWith(0);
		assertThat(lifecycle.config(this.connector).ok()).isTrue();
	}

	@Test
	void anApiServerThatCannotBeReachedIsUnreachable() throws IOException {
		int closed = RefusedPort.PORT;
		ConnectorLifecycle.Answer config = new ConnectorLifecycle(client("http://127.0.0.1:" + closed))
			.config(this.connector);
		assertThat(config.unreachable()).isTrue();
		assertThat(config.error()).contains("the Kubernetes API").doesNotContain(TOKEN);
	}

	private Map<String, Object> spec() {
		return asMap(this.api.connector("cdc", "orders-cdc").get("spec"));
	}

	private Map<String, Object> annotations() {
		return asMap(asMap(this.api.connector("cdc", "orders-cdc").get("metadata")).get("annotations"));
	}

	@SuppressWarnings("unchecked")
	private static Map<String, Object> asMap(Object value) {
		return (Map<String, Object>) value;
	}

}
