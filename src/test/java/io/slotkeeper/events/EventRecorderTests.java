package io.slotkeeper.events;

import java.io.IOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;

import io.slotkeeper.kubernetes.KubernetesApi;
import io.slotkeeper.testbed.SteppingClock;
import io.slotkeeper.testbed.StrimziResources;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The recorder against the Kubernetes API stand-in over HTTP, which validates events as
 * the API server does: written, aggregated into a series on repeats, off where the Role
 * lacks them, and never in the caller's way while the API server hangs.
 */
@ExtendWith(OutputCaptureExtension.class)
class EventRecorderTests {

	private static final String TOKEN = "events-sa-token";

	private static final KubernetesEvent.Subject CONNECTOR = new KubernetesEvent.Subject("kafka.strimzi.io/v1",
			"KafkaConnector", "cdc", "orders-debezium", "0b6c8f0e-7d55-4a8e-9c1e-3f2b6a1d9e40");

	private final StrimziResources kubernetes = new StrimziResources(TOKEN, "v1");

	private final SimpleMeterRegistry registry = new SimpleMeterRegistry();

	private final SteppingClock clock = new SteppingClock(Instant.parse("2026-12-07T10:00:00Z"));

	private EventRecorder recorder;

	@TempDir
	Path directory;

	@BeforeEach
	void start() throws IOException {
		Path token = Files.writeString(this.directory.resolve("token"), TOKEN);
		KubernetesApi api = new KubernetesApi(URI.create(this.kubernetes.url()), token,
				this.directory.resolve("absent-ca.crt"), Duration.ofSeconds(2));
		this.recorder = new EventRecorder(api, "slot-keeper-7d9f-abcde", 16, this.registry, this.clock);
	}

	@AfterEach
	void stop() {
		this.recorder.close();
		this.kubernetes.close();
	}

	@Test
	void anEventIsWrittenWhole() {
		this.recorder.record(lost("Slot debezium of target orders was lost (wal_removed)."));

		await().atMost(Duration.ofSeconds(10)).until(() -> this.kubernetes.events("cdc").size() == 1);
		Map<String, Object> event = this.kubernetes.events("cdc").get(0);
		assertThat(event).containsEntry("reportingController", "slotkeeper.io/slot-keeper")
			.containsEntry("reportingInstance", "slot-keeper-7d9f-abcde")
			.containsEntry("type", "Warning")
			.containsEntry("reason", "SlotLost")
			.containsEntry("action", "Heal")
			.containsEntry("note", "Slot debezium of target orders was lost (wal_removed).")
			.containsEntry("eventTime", "2026-12-07T10:00:00.000000Z");
		assertThat(event.get("regarding")).isEqualTo(Map.of("apiVersion", "kafka.strimzi.io/v1", "kind",
				"KafkaConnector", "namespace", "cdc", "name", "orders-debezium", "uid", CONNECTOR.uid()));
		assertThat(String.valueOf(((Map<?, ?>) event.get("metadata")).get("name"))).startsWith("orders-debezium.");
		assertThat(count("written")).isEqualTo(1.0);
	}

	@Test
	void theSameAgainWithinSixMinutesAddsToItsSeriesAndLaterIsANewEvent() {
		this.recorder.record(lost("first"));
		await().atMost(Duration.ofSeconds(10)).until(() -> this.kubernetes.events("cdc").size() == 1);
		for (int i = 0; i < 4; i++) {
			this.clock.advance(Duration.ofMinutes(1));
			this.recorder.record(lost("again " + i));
		}
		// A series is patched at most every 30 s.
		await().atMost(Duration.ofSeconds(10)).until(() -> count("aggregated") == 4.0);
		this.clock.advance(Duration.ofSeconds(30));

		await().atMost(Duration.ofSeconds(10))
			.untilAsserted(() -> assertThat(this.kubernetes.events("cdc")).singleElement()
				.satisfies((event) -> assertThat(event.get("series"))
					.isEqualTo(Map.of("count", 5, "lastObservedTime", "2026-12-07T10:04:00.000000Z"))));
		assertThat(this.kubernetes.events("cdc").get(0)).as("the first note stands").containsEntry("note", "first");

		this.clock.advance(Duration.ofMinutes(7));
		this.recorder.record(lost("after a quiet while"));
		await().atMost(Duration.ofSeconds(10)).until(() -> this.kubernetes.events("cdc").size() == 2);
		assertThat(this.kubernetes.events("cdc").get(1)).containsEntry("note", "after a quiet while")
			.doesNotContainKey("series");
	}

	@Test
	void anotherReasonOrObjectIsAnEventOfItsOwn() {
		this.recorder.record(lost("lost"));
		this.recorder.record(new KubernetesEvent(CONNECTOR, KubernetesEvent.NORMAL, "SlotRecreated", "Heal", "made"));
		this.recorder.record(new KubernetesEvent(
				new KubernetesEvent.Subject("kafka.strimzi.io/v1", "KafkaConnector", "cdc", "billing-debezium", ""),
				KubernetesEvent.WARNING, "SlotLost", "Heal", "lost too"));

		await().atMost(Duration.ofSeconds(10)).until(() -> this.kubernetes.events("cdc").size() == 3);
		assertThat(this.kubernetes.events("cdc"))
			.extracting((event) -> event.get("reason") + " " + ((Map<?, ?>) event.get("regarding")).get("name"))
			.containsExactlyInAnyOrder("SlotLost orders-debezium", "SlotRecreated orders-debezium",
					"SlotLost billing-debezium");
	}

	@Test
	void aNamespaceWhoseEventsTheRoleDoesNotGrantIsOffAndSaidOnce(CapturedOutput output) {
		this.kubernetes.forbidEvents("cdc");

		for (int i = 0; i < 3; i++) {
			this.clock.advance(Duration.ofMinutes(10));
			this.recorder.record(lost("lost " + i));
		}

		await().atMost(Duration.ofSeconds(10)).until(() -> count("off") == 3.0);
		assertThat(this.kubernetes.events("cdc")).isEmpty();
		assertThat(output.getOut().split("Kubernetes Events are off in namespace cdc", -1)).as("said once").hasSize(2);
		assertThat(output.getOut()).contains("needs create and patch on events.k8s.io events there")
			.doesNotContain(TOKEN);
	}

	@Test
	void anApiServerThatHangsHoldsOnlyTheRecordersThreadAndAFullQueueDrops() {
		this.kubernetes.hang(true);
		for (int i = 0; i < 100; i++) {
			this.clock.advance(Duration.ofMinutes(10));
			this.recorder.record(lost("lost " + i));
		}
		assertThat(count("dropped")).as("past the queue's 16 and the one in flight").isGreaterThanOrEqualTo(83.0);

		this.kubernetes.hang(false);
		await().atMost(Duration.ofSeconds(30)).until(this.recorder::idle);
		assertThat(count("written") + count("failed")).isEqualTo(100.0 - count("dropped"));
		assertThat(this.kubernetes.events("cdc")).isNotEmpty();
	}

	private static KubernetesEvent lost(String note) {
		return new KubernetesEvent(CONNECTOR, KubernetesEvent.WARNING, "SlotLost", "Heal", note);
	}

	private double count(String outcome) {
		return this.registry.get("slotkeeper.kubernetes.events").tag("outcome", outcome).counter().count();
	}

}
