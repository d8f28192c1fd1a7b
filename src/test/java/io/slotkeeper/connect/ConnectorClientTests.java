package io.slotkeeper.connect;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.time.Duration;
import java.util.Base64;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import org.springframework.web.client.RestClient;

import io.slotkeeper.config.ConnectorProperties;
import io.slotkeeper.testbed.ConnectStub.Answer;
import io.slotkeeper.testbed.ConnectStub.Request;
import io.slotkeeper.testbed.ConnectStub;
import io.slotkeeper.testbed.RefusedPort;

import static io.slotkeeper.testbed.ConnectStub.connector;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * The Kafka Connect client against a local HTTP stand-in that records what it receives
 * and answers from a script.
 */
class ConnectorClientTests {

	private final ConnectStub connect = new ConnectStub();

	private final ConnectorClient client = new ConnectorClient(RestClient.builder(), Duration.ofMillis(10),
			java.time.Clock.systemUTC());

	@AfterEach
	void stop() {
		this.connect.close();
	}

	@Test
	void theDebeziumExtensionIsToldInstalledFromTheWorkersPluginsAndAbsentWhenNotListed() {
		ConnectorProperties connector = ConnectStub.connector(this.connect.url());

		ExtensionCheck absent = this.client.api(connector).extension(connector);
		this.connect.withExtension();
		ExtensionCheck installed = this.client.api(connector).extension(connector);

		assertThat(absent.absent()).isTrue();
		assertThat(installed.installed()).isTrue();
		assertThat(installed.detail()).contains("version 0.1.0");
		assertThat(this.connect.requests())
			.anySatisfy((request) -> assertThat(request.query()).isEqualTo("connectorsOnly=false"));
	}

	@Test
	void aWorkerThatCannotListItsPluginsLeavesTheExtensionUntold() {
		ConnectorProperties connector = ConnectStub.connector("http://127.0.0.1:" + RefusedPort.PORT);

		assertThat(this.client.api(connector).extension(connector).installed()).isNull();
	}

	@Test
	void aRestartAsksForTheConnectorAndItsFailedTasksWithBasicAuth() {
		ConnectorOutcome outcome = this.client
			.restart(connector(this.connect.url(), "username", "connect", "password", "connect-pw"));
		assertThat(outcome).isEqualTo(new ConnectorOutcome("orders-cdc", true, 202, 1, null));
		assertThat(this.connect.requests()).singleElement()
			.isEqualTo(new Request("POST", "/connectors/orders-cdc/restart", "includeTasks=true&onlyFailed=true",
					"Basic " + Base64.getEncoder().encodeToString("connect:connect-pw".getBytes()), ""));
	}

	@Test
	void aRebalanceIsRetriedAndOtherRefusalsAreNot() {
		this.connect.script(new Answer(409, "{\"message\":\"rebalance in progress\"}"), new Answer(202, "{}"));
		assertThat(this.client.restart(connector(this.connect.url())))
			.extracting(ConnectorOutcome::restarted, ConnectorOutcome::attempts)
			.containsExactly(true, 2);
		this.connect.reset();
		this.connect.script(new Answer(400, "{\"error_code\":400,\"message\":\"bad request\"}"));
		ConnectorOutcome refused = this.client.restart(connector(this.connect.url()));
		assertThat(refused.restarted()).isFalse();
		assertThat(refused.status()).isEqualTo(400);
		assertThat(refused.attempts()).isEqualTo(1);
		assertThat(refused.detail()).contains("Kafka Connect answered 400").contains("bad request");
	}

	@Test
	void aStartingWorkerIsNotReachedYetAndAMissingRouteIsAnAnswer() {
		// What a real worker answers while it starts: Jetty's error page, then Connect's
		// own "not found".
		this.connect.script(
				new Answer(404,
						"{\n  \"message\" : \"Not Found\",\n  \"url\" : \"/connectors/orders-cdc/restart\","
								+ "\n  \"status\" : \"404\"\n}"),
				new Answer(404, "{\"error_code\":404,\"message\":\"Connector orders-cdc not found\"}"),
				new Answer(404, "{\"error_code\":404,\"message\":\"HTTP 404 Not Found\"}"));
		ConnectorOutcome starting = this.client.restart(connector(this.connect.url()));
		assertThat(starting.status()).as("not reached: a handover waits").isNull();
		assertThat(starting.detail()).contains("\"message\" : \"Not Found\", \"url\"");
		assertThat(this.client.restart(connector(this.connect.url())).status()).isNull();
		ConnectorOutcome noRoute = this.client.restart(connector(this.connect.url()));
		assertThat(noRoute.status()).as("an old Connect's answer").isEqualTo(404);
		assertThat(noRoute.detail()).contains("HTTP 404 Not Found");
	}

	@Test
	void aRebalanceThatNeverEndsGivesUpAfterFourAttempts() {
		for (int i = 0; i < 4; i++) {
			this.connect.script(new Answer(409, "{}"));
		}
		ConnectorOutcome outcome = this.client.restart(connector(this.connect.url()));
		assertThat(outcome.restarted()).isFalse();
		assertThat(outcome.attempts()).isEqualTo(4);
		assertThat(this.connect.requests()).hasSize(4);
	}

	@Test
	void anUnreachableKafkaConnectIsReportedNotThrown() throws IOException {
		int closed = RefusedPort.PORT;
		ConnectorOutcome outcome = this.client.restart(connector("http://127.0.0.1:" + closed, "timeout", "1s"));
		assertThat(outcome.restarted()).isFalse();
		assertThat(outcome.status()).isNull();
		assertThat(outcome.detail()).startsWith("Kafka Connect could not be reached");
		assertThat(this.client.status(connector("http://127.0.0.1:" + closed, "timeout", "1s")).error())
			.startsWith("Kafka Connect could not be reached");
	}

	@Test
	void theStatusNamesEachTaskWithTheFirstLineOfItsTrace() {
		this.connect.status("{\"name\":\"orders-cdc\",\"connector\":{\"state\":\"RUNNING\"},\"tasks\":[{\"id\":0,"
				+ "\"state\":\"FAILED\",\"trace\":\"io.debezium.DebeziumException: Unable to obtain valid replication"
				+ " slot\\n\\tat io.debezium...\"}]}");
		ConnectorStatus status = this.client.status(connector(this.connect.url()));
		assertThat(status.state()).isEqualTo("RUNNING");
		assertThat(status.error()).isNull();
		assertThat(status.tasks()).containsExactly(new ConnectorStatus.Task(0, "FAILED",
				"io.debezium.DebeziumException: Unable to obtain valid replication slot"));
		this.connect.scriptStatus(new Answer(500, "{\"error_code\":500,\"message\":\"no leader\"}"));
		assertThat(this.client.status(connector(this.connect.url())).error())
			.isEqualTo("Kafka Connect answered 500: {\"error_code\":500,\"message\":\"no leader\"}");
	}

	@Test
	void aFailureWhoseCauseHasNoMessageSaysWhatFailedNotNull() throws Exception {
		assertThat(ConnectorClient.failure(new org.springframework.web.client.ResourceAccessException(
				"I/O error on GET request for \"http://connect:8083/connectors/c/status\": null",
				new java.net.SocketException())))
			.isEqualTo("I/O error on GET request for \"http://connect:8083/connectors/c/status\": SocketException (no"
					+ " message)");
		assertThat(ConnectorClient.failure(new IOException(null, new java.net.ConnectException("Connection refused"))))
			.isEqualTo("IOException: ConnectException: Connection refused");
		// A worker that takes the connection and closes it at once.
		try (ServerSocket closing = new ServerSocket(0, 50, InetAddress.getLoopbackAddress())) {
			Thread acceptor = new Thread(() -> {
				while (!closing.isClosed()) {
					try {
						closing.accept().close();
					}
					catch (IOException ex) {
						return;
					}
				}
			});
			acceptor.setDaemon(true);
			acceptor.start();
			ConnectorStatus status = this.client.status(connector("http://127.0.0.1:" + closing.getLocalPort()));
			assertThat(status.error()).isNotNull().doesNotEndWith(": null").doesNotEndWith("null");
		}
	}

	@Test
	void connectorsOfOneKafkaConnectClusterShareOneHttpClient() {
		RestConnectorApi api = new RestConnectorApi(RestClient.builder(), Duration.ofMillis(10),
				java.time.Clock.systemUTC());
		for (int i = 0; i < 50; i++) {
			api.status(connector(this.connect.url(), "name", "found-" + i));
		}
		assertThat(api.clients()).as("discovered connectors that come and go add no client").isEqualTo(1);
		api.status(connector(this.connect.url(), "username", "connect", "password", "other"));
		assertThat(api.clients()).as("other credentials are another client").isEqualTo(2);
	}

}
