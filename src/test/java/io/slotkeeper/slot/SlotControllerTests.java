package io.slotkeeper.slot;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

import org.springframework.http.MediaType;

import io.slotkeeper.sessions.Lsn;
import io.slotkeeper.testbed.ConnectStub;
import io.slotkeeper.testbed.LogicalConsumer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

@Tag("pg-compat")
@Tag("pg-each")
class SlotControllerTests extends SlotApiTestSupport {

	@BeforeEach
	void resetConnect() {
		connect().reset();
	}

	@Test
	void listingShowsEveryColumnTheServerVersionHas() {
		createSlot("listed");
		int major = server().majorVersion();
		viewer().get()
			.uri("/api/v1/targets/main/slots?walStatus=reserved&active=false&database=" + DATABASE)
			.exchange()
			.expectStatus()
			.isOk()
			.expectBody()
			.jsonPath("$[?(@.slotName == 'listed')].plugin")
			.isEqualTo(List.of("pgoutput"))
			.jsonPath("$[?(@.slotName == 'listed')].slotType")
			.isEqualTo(List.of("logical"))
			.jsonPath("$[?(@.slotName == 'listed')].database")
			.isEqualTo(List.of(DATABASE))
			.jsonPath("$[?(@.slotName == 'listed')].walStatus")
			.isEqualTo(List.of("reserved"))
			.jsonPath("$[?(@.slotName == 'listed')].safeWalSizeBytes")
			.value((v) -> assertThat((List<?>) v).hasSize(1))
			.jsonPath("$[?(@.slotName == 'listed')].retainedWalBytes")
			.value((v) -> assertThat(((Number) ((List<?>) v).get(0)).longValue()).isGreaterThanOrEqualTo(0))
			.jsonPath("$[?(@.slotName == 'listed')].twoPhase")
			.isEqualTo(major >= 14 ? List.of(false) : java.util.Collections.singletonList(null))
			.jsonPath("$[?(@.slotName == 'listed')].twoPhaseAt")
			.isEqualTo(java.util.Collections.singletonList(null))
			.jsonPath("$[?(@.slotName == 'listed')].failover")
			.isEqualTo(major >= 17 ? List.of(false) : java.util.Collections.singletonList(null))
			.jsonPath("$[?(@.slotName == 'listed')].conflicting")
			.isEqualTo(major >= 16 ? List.of(false) : java.util.Collections.singletonList(null));
		viewer().get()
			.uri("/api/v1/targets/main/slots?walStatus=lost")
			.exchange()
			.expectStatus()
			.isOk()
			.expectBody()
			.jsonPath("$[?(@.slotName == 'listed')]")
			.isEmpty();
		server().execute(DATABASE, "SELECT pg_drop_replication_slot('listed')");
	}

	@Test
	void listingIsInSlotNameOrderWhateverOrderTheSlotsWereMadeIn() {
		List<String> made = List.of("order_c", "order_a", "order_b");
		made.forEach(SlotApiTestSupport::createSlot);
		List<String> names = new ArrayList<>();
		viewer().get()
			.uri("/api/v1/targets/main/slots")
			.exchange()
			.expectStatus()
			.isOk()
			.expectBody()
			.jsonPath("$[?(@.missing == false)].slotName")
			.value((v) -> ((List<?>) v).forEach((name) -> names.add((String) name)));
		assertThat(names).isSorted().containsSubsequence("order_a", "order_b", "order_c");
		made.forEach((slot) -> server().execute(DATABASE, "SELECT pg_drop_replication_slot('" + slot + "')"));
	}

	@Test
	void aChangeWithAStaleIfMatchIsRefusedWith412AndChangesNothing() {
		createSlot("tagged");
		String etag = viewer().get()
			.uri("/api/v1/targets/main/slots/tagged")
			.exchange()
			.expectStatus()
			.isOk()
			.returnResult(String.class)
			.getResponseHeaders()
			.getETag();
		assertThat(etag).matches("\"[0-9a-f]{24}\"");
		viewer().get()
			.uri("/api/v1/targets/main/slots")
			.exchange()
			.expectBody()
			.jsonPath("$[?(@.slotName == 'tagged')].etag")
			.isEqualTo(List.of(etag));
		for (String stale : List.of("\"0123456789abcdef01234567\"", "W/" + etag)) {
			operator().delete()
				.uri("/api/v1/targets/main/slots/tagged")
				.header("If-Match", stale)
				.exchange()
				.expectStatus()
				.isEqualTo(412)
				.expectHeader()
				.contentType(MediaType.APPLICATION_PROBLEM_JSON)
				.expectBody()
				.jsonPath("$.type")
				.isEqualTo("urn:slotkeeper:problem:slot-changed")
				.jsonPath("$.etag")
				.isEqualTo(etag);
		}
		operator().delete()
			.uri("/api/v1/targets/main/slots/tagged?dryRun=true")
			.header("If-Match", "\"stale\"")
			.exchange()
			.expectStatus()
			.isOk()
			.expectBody()
			.jsonPath("$.refusal.status")
			.isEqualTo(412);
		assertThat(server().queryForString("postgres",
				"SELECT count(*) FROM pg_replication_slots WHERE slot_name = 'tagged'"))
			.isEqualTo("1");
		operator().post()
			.uri("/api/v1/targets/main/slots/tagged/recreate?force=true")
			.header("If-Match", "\"other\", " + etag)
			.exchange()
			.expectStatus()
			.isOk();
		operator().delete()
			.uri("/api/v1/targets/main/slots/tagged")
			.header("If-Match", etag)
			.exchange()
			.expectStatus()
			.isEqualTo(412);
		operator().delete()
			.uri("/api/v1/targets/main/slots/tagged")
			.header("If-Match", "*")
			.exchange()
			.expectStatus()
			.isNoContent();
	}

	@Test
	void oneSlotOr404Problem() {
		createSlot("single");
		viewer().get()
			.uri("/api/v1/targets/main/slots/single")
			.exchange()
			.expectStatus()
			.isOk()
			.expectBody()
			.jsonPath("$.slotName")
			.isEqualTo("single");
		viewer().get()
			.uri("/api/v1/targets/main/slots/absent")
			.exchange()
			.expectStatus()
			.isNotFound()
			.expectHeader()
			.contentType(MediaType.APPLICATION_PROBLEM_JSON)
			.expectBody()
			.jsonPath("$.type")
			.isEqualTo("urn:slotkeeper:problem:slot-not-found");
		server().execute(DATABASE, "SELECT pg_drop_replication_slot('single')");
	}

	@Test
	void createAnswers201WithLocationThen409() {
		operator().post()
			.uri("/api/v1/targets/main/slots")
			.contentType(MediaType.APPLICATION_JSON)
			.body(Map.of("name", "created", "plugin", "pgoutput"))
			.exchange()
			.expectStatus()
			.isCreated()
			.expectHeader()
			.valueEquals("Location", "/api/v1/targets/main/slots/created")
			.expectBody()
			.jsonPath("$.walStatus")
			.isEqualTo("reserved")
			.jsonPath("$.database")
			.isEqualTo(DATABASE);
		assertThat(exists("created")).isTrue();
		operator().post()
			.uri("/api/v1/targets/main/slots")
			.contentType(MediaType.APPLICATION_JSON)
			.body(Map.of("name", "created"))
			.exchange()
			.expectStatus()
			.isEqualTo(409)
			.expectBody()
			.jsonPath("$.type")
			.isEqualTo("urn:slotkeeper:problem:slot-exists");
		operator().post()
			.uri("/api/v1/targets/main/slots")
			.contentType(MediaType.APPLICATION_JSON)
			.body(Map.of("name", "physical_one", "type", "physical"))
			.exchange()
			.expectStatus()
			.isCreated()
			.expectBody()
			.jsonPath("$.slotType")
			.isEqualTo("physical");
		server().execute(DATABASE, "SELECT pg_drop_replication_slot('created')",
				"SELECT pg_drop_replication_slot('physical_one')");
	}

	@Test
	void misspeltOrMalformedBodyIs400AndNothingIsCreated() {
		operator().post()
			.uri("/api/v1/targets/main/slots")
			.contentType(MediaType.APPLICATION_JSON)
			.body(Map.of("name", "typo", "twophase", true))
			.exchange()
			.expectStatus()
			.isBadRequest()
			.expectHeader()
			.contentType(MediaType.APPLICATION_PROBLEM_JSON);
		operator().post()
			.uri("/api/v1/targets/main/slots")
			.contentType(MediaType.APPLICATION_JSON)
			.body("{\"name\": ")
			.exchange()
			.expectStatus()
			.isBadRequest()
			.expectHeader()
			.contentType(MediaType.APPLICATION_PROBLEM_JSON);
		operator().post()
			.uri("/api/v1/targets/main/slots")
			.contentType(MediaType.APPLICATION_JSON)
			.body(Map.of("name", "phys", "type", "physical", "plugin", "pgoutput"))
			.exchange()
			.expectStatus()
			.isBadRequest()
			.expectBody()
			.jsonPath("$.type")
			.isEqualTo("urn:slotkeeper:problem:invalid-request");
		viewer().get().uri("/api/v1/targets/main/slots?active=maybe").exchange().expectStatus().isBadRequest();
		assertThat(exists("typo")).isFalse();
		assertThat(exists("phys")).isFalse();
	}

	@Test
	void failoverBeforePostgres17Is422AndNothingIsCreated() {
		int major = server().majorVersion();
		var response = operator().post()
			.uri("/api/v1/targets/main/slots")
			.contentType(MediaType.APPLICATION_JSON)
			.body(Map.of("name", "failing_over", "failover", true))
			.exchange();
		if (major >= 17) {
			response.expectStatus().isCreated().expectBody().jsonPath("$.failover").isEqualTo(true);
			server().execute(DATABASE, "SELECT pg_drop_replication_slot('failing_over')");
		}
		else {
			response.expectStatus()
				.isEqualTo(422)
				.expectBody()
				.jsonPath("$.detail")
				.value((detail) -> assertThat(detail.toString()).contains("PostgreSQL 17"));
			assertThat(exists("failing_over")).isFalse();
		}
	}

	@Test
	void dropAnswers204AndMissingSlotIs404() {
		createSlot("dropped");
		operator().delete().uri("/api/v1/targets/main/slots/dropped").exchange().expectStatus().isNoContent();
		assertThat(exists("dropped")).isFalse();
		operator().delete().uri("/api/v1/targets/main/slots/dropped").exchange().expectStatus().isNotFound();
	}

	@Test
	void activeSlotIsRefusedWithItsHolderThenForceDropsIt() throws Exception {
		createSlot("held");
		try (LogicalConsumer consumer = new LogicalConsumer(server(), DATABASE, "held", "pub", true)) {
			await().atMost(Duration.ofSeconds(10))
				.until(() -> "t".equals(server().queryForString("postgres",
						"SELECT active FROM pg_replication_slots WHERE slot_name = 'held'")));
			String pid = server().queryForString("postgres",
					"SELECT active_pid FROM pg_replication_slots WHERE slot_name = 'held'");
			operator().delete()
				.uri("/api/v1/targets/main/slots/held")
				.exchange()
				.expectStatus()
				.isEqualTo(409)
				.expectBody()
				.jsonPath("$.type")
				.isEqualTo("urn:slotkeeper:problem:slot-active")
				.jsonPath("$.activePid")
				.isEqualTo(Integer.parseInt(pid));
			assertThat(exists("held")).isTrue();
			operator().delete()
				.uri("/api/v1/targets/main/slots/held?force=true")
				.exchange()
				.expectStatus()
				.isNoContent();
			assertThat(exists("held")).isFalse();
		}
	}

	@Test
	void lostSlotRecreateReportsTheSkippedRangeAndHandsItsConnectorOverWithAlignedOffsets() {
		createSlot("debezium");
		String oldConfirmed = server().queryForString("postgres",
				"SELECT confirmed_flush_lsn FROM pg_replication_slots WHERE slot_name = 'debezium'");
		connect().offsets("[{\"partition\":{\"server\":\"orders\"},\"offset\":{\"lsn\":" + Lsn.parse(oldConfirmed)
				+ ",\"txId\":7}}]");
		loseSlot("debezium");
		operator().post()
			.uri("/api/v1/targets/main/slots/debezium/recreate?dryRun=true")
			.exchange()
			.expectStatus()
			.isOk()
			.expectBody()
			.jsonPath("$.steps")
			.isEqualTo(List.of("stop connector rbac-debezium and read its"
					+ " offsets (unless its Debezium offset.mismatch.strategy is trust_slot or trust_greater_lsn: then only restart"
					+ " rbac-debezium after the create)", "drop slot debezium while it is still lost",
					"create logical slot debezium with plugin pgoutput",
					"then set the offsets of rbac-debezium to the new slot's confirmed position, resume it and wait"
							+ " until it runs"));
		assertThat(connect().changes()).as("a dry run calls nothing").isEmpty();
		byte[] body = operator().post()
			.uri("/api/v1/targets/main/slots/debezium/recreate")
			.exchange()
			.expectStatus()
			.isOk()
			.expectBody()
			.jsonPath("$.oldSlot.walStatus")
			.isEqualTo("lost")
			.jsonPath("$.oldSlot.confirmedFlushLsn")
			.isEqualTo(oldConfirmed)
			.jsonPath("$.newSlot.walStatus")
			.isEqualTo("reserved")
			.jsonPath("$.newSlot.plugin")
			.isEqualTo("pgoutput")
			.jsonPath("$.skipped.fromLsn")
			.isEqualTo(oldConfirmed)
			.jsonPath("$.skipped.toLsn")
			.value((to) -> assertThat(Lsn.parse(to.toString())).isGreaterThan(Lsn.parse(oldConfirmed)))
			.jsonPath("$.skipped.bytes")
			.value((bytes) -> assertThat(((Number) bytes).longValue()).isGreaterThan(16L << 20))
			.jsonPath("$.connector.method")
			.isEqualTo("align")
			.jsonPath("$.connector.running")
			.isEqualTo(true)
			.jsonPath("$.connector.offsetsBefore[0].offset.lsn")
			.isEqualTo(Lsn.parse(oldConfirmed))
			.jsonPath("$.connector.warning")
			.doesNotExist()
			.returnResult()
			.getResponseBodyContent();
		String newConfirmed = com.jayway.jsonpath.JsonPath.read(new String(body), "$.newSlot.confirmedFlushLsn");
		assertThat(connect().offsets()).as("the offsets point at the new slot")
			.contains("\"partition\":{\"server\":\"orders\"}", "\"lsn\":" + Lsn.parse(newConfirmed),
					"\"lsn_proc\":" + Lsn.parse(newConfirmed));
		String auth = "Basic "
				+ java.util.Base64.getEncoder().encodeToString(("connect:" + CONNECT_PASSWORD).getBytes());
		assertThat(connect().changes())
			.extracting(ConnectStub.Request::method, ConnectStub.Request::path, ConnectStub.Request::authorization)
			.containsExactly(org.assertj.core.groups.Tuple.tuple("PUT", "/connectors/rbac-debezium/stop", auth),
					org.assertj.core.groups.Tuple.tuple("PATCH", "/connectors/rbac-debezium/offsets", auth),
					org.assertj.core.groups.Tuple.tuple("PUT", "/connectors/rbac-debezium/resume", auth));
		assertThat(connect().stopped()).isFalse();
		server().execute(DATABASE, "SELECT pg_drop_replication_slot('debezium')");
	}

	@Test
	void withoutTheOffsetsApiARecreateRestartsTheConnectorAndSaysItWillLikelyFail() {
		createSlot("debezium");
		connect().withoutOffsetsApi();
		loseSlot("debezium");
		operator().post()
			.uri("/api/v1/targets/main/slots/debezium/recreate")
			.exchange()
			.expectStatus()
			.isOk()
			.expectBody()
			.jsonPath("$.newSlot.walStatus")
			.isEqualTo("reserved")
			.jsonPath("$.connector.method")
			.isEqualTo("restart")
			.jsonPath("$.connector.warning")
			.value((warning) -> assertThat(warning.toString()).contains("no offsets API")
				.contains("no longer available on the server"));
		assertThat(connect().changes()).extracting(ConnectStub.Request::path)
			.containsExactly("/connectors/rbac-debezium/restart");
		viewer().get()
			.uri("/api/v1/audit")
			.exchange()
			.expectBody()
			.jsonPath("$[0].connector")
			.value((connector) -> assertThat(connector.toString()).contains("restart").contains("no offsets API"));
		server().execute(DATABASE, "SELECT pg_drop_replication_slot('debezium')");
	}

	@Test
	void connectorRebalanceIsRetriedUntilAccepted() {
		connect().script(new ConnectStub.Answer(409, "{\"error_code\":409,\"message\":\"rebalance\"}"),
				new ConnectStub.Answer(409, "{\"error_code\":409,\"message\":\"rebalance\"}"));
		operator().post()
			.uri("/api/v1/targets/main/slots/debezium/connector/restart")
			.exchange()
			.expectStatus()
			.isOk()
			.expectBody()
			.jsonPath("$.restarted")
			.isEqualTo(true)
			.jsonPath("$.attempts")
			.isEqualTo(3)
			.jsonPath("$.status")
			.isEqualTo(202);
		assertThat(connect().changes()).hasSize(3)
			.allSatisfy((request) -> assertThat(request.path()).isEqualTo("/connectors/rbac-debezium/restart"));
	}

	@Test
	void deadConnectEndpointNeverUndoesTheRecreateAndTheHandoverIsKeptForLater() {
		createSlot("orphan");
		loseSlot("orphan");
		operator().post()
			.uri("/api/v1/targets/main/slots/orphan/recreate")
			.exchange()
			.expectStatus()
			.isOk()
			.expectBody()
			.jsonPath("$.newSlot.walStatus")
			.isEqualTo("reserved")
			.jsonPath("$.connector.method")
			.isEqualTo("pending")
			.jsonPath("$.connector.running")
			.isEqualTo(false)
			.jsonPath("$.connector.warning")
			.value((d) -> assertThat(d.toString()).contains("could not be reached")
				.contains("completed once Kafka Connect answers"));
		assertThat(exists("orphan")).isTrue();
		assertThat(server().queryForString(DATABASE, "SELECT slot FROM slotkeeper.handovers")).isEqualTo("orphan");
		server().execute(DATABASE, "DELETE FROM slotkeeper.handovers");
		operator().post()
			.uri("/api/v1/targets/main/slots/orphan/connector/restart")
			.exchange()
			.expectStatus()
			.isEqualTo(502)
			.expectBody()
			.jsonPath("$.type")
			.isEqualTo("urn:slotkeeper:problem:connector-restart-failed");
		server().execute(DATABASE, "SELECT pg_drop_replication_slot('orphan')");
	}

	@Test
	void connectorStatusShowsTheFailedTasksFirstTraceLine() {
		connect().status("{\"name\":\"rbac-debezium\",\"connector\":{\"state\":\"RUNNING\"},\"tasks\":[{\"id\":0,"
				+ "\"state\":\"FAILED\",\"trace\":\"io.debezium.DebeziumException: Unable to obtain valid replication"
				+ " slot\\n\\tat io.debezium.connector.postgresql.PostgresConnectorTask.start\"}]}");
		viewer().get()
			.uri("/api/v1/targets/main/slots/debezium/connector")
			.exchange()
			.expectStatus()
			.isOk()
			.expectBody()
			.jsonPath("$.state")
			.isEqualTo("RUNNING")
			.jsonPath("$.tasks[0].state")
			.isEqualTo("FAILED")
			.jsonPath("$.tasks[0].trace")
			.isEqualTo("io.debezium.DebeziumException: Unable to obtain valid replication slot");
		createSlot("debezium");
		// The listing shows the state the target's last slot poll read, with when it read
		// it.
		await().atMost(Duration.ofSeconds(10))
			.untilAsserted(() -> viewer().get()
				.uri("/api/v1/targets/main/slots/debezium")
				.exchange()
				.expectStatus()
				.isOk()
				.expectBody()
				.jsonPath("$.connector.tasks[0].state")
				.isEqualTo("FAILED")
				.jsonPath("$.connector.checkedAt")
				.exists());
		viewer().get()
			.uri("/api/v1/targets/main/slots/listed_nowhere/connector")
			.exchange()
			.expectStatus()
			.isNotFound()
			.expectBody()
			.jsonPath("$.type")
			.isEqualTo("urn:slotkeeper:problem:connector-not-configured");
		server().execute(DATABASE, "SELECT pg_drop_replication_slot('debezium')");
	}

	@Test
	void healthySlotRecreateIsRefusedUnlessForced() {
		createSlot("healthy");
		operator().post()
			.uri("/api/v1/targets/main/slots/healthy/recreate")
			.exchange()
			.expectStatus()
			.isEqualTo(409)
			.expectBody()
			.jsonPath("$.type")
			.isEqualTo("urn:slotkeeper:problem:slot-not-invalidated");
		operator().post()
			.uri("/api/v1/targets/main/slots/healthy/recreate?force=true")
			.exchange()
			.expectStatus()
			.isOk()
			.expectBody()
			.jsonPath("$.newSlot.slotName")
			.isEqualTo("healthy")
			.jsonPath("$.connector")
			.doesNotExist();
		server().execute(DATABASE, "SELECT pg_drop_replication_slot('healthy')");
	}

	@Test
	void dryRunsSayWhatWouldHappenAndChangeNothing() {
		createSlot("dry");
		String before = server().queryForString("postgres",
				"SELECT restart_lsn FROM pg_replication_slots WHERE slot_name = 'dry'");
		operator().delete()
			.uri("/api/v1/targets/main/slots/dry?dryRun=true")
			.exchange()
			.expectStatus()
			.isOk()
			.expectBody()
			.jsonPath("$.dryRun")
			.isEqualTo(true)
			.jsonPath("$.wouldBeRefused")
			.isEqualTo(false)
			.jsonPath("$.steps")
			.isEqualTo(List.of("drop slot dry"));
		operator().post()
			.uri("/api/v1/targets/main/slots/dry/recreate?dryRun=true")
			.exchange()
			.expectStatus()
			.isOk()
			.expectBody()
			.jsonPath("$.wouldBeRefused")
			.isEqualTo(true)
			.jsonPath("$.refusal.status")
			.isEqualTo(409);
		operator().post()
			.uri("/api/v1/targets/main/slots/dry/recreate?dryRun=true&force=true")
			.exchange()
			.expectStatus()
			.isOk()
			.expectBody()
			.jsonPath("$.steps")
			.isEqualTo(List.of("drop slot dry", "create logical slot dry with plugin pgoutput"));
		operator().post()
			.uri("/api/v1/targets/main/slots?dryRun=true")
			.contentType(MediaType.APPLICATION_JSON)
			.body(Map.of("name", "never_made"))
			.exchange()
			.expectStatus()
			.isOk()
			.expectBody()
			.jsonPath("$.steps")
			.isEqualTo(List.of("create logical slot never_made with plugin pgoutput"));
		assertThat(exists("never_made")).isFalse();
		assertThat(server().queryForString("postgres",
				"SELECT restart_lsn FROM pg_replication_slots WHERE slot_name = 'dry'"))
			.isEqualTo(before);
		server().execute(DATABASE, "SELECT pg_drop_replication_slot('dry')");
	}

	@Test
	void roleWithoutReplicationGets403NamingTheAttribute() {
		operator().post()
			.uri("/api/v1/targets/norepl/slots")
			.contentType(MediaType.APPLICATION_JSON)
			.body(Map.of("name", "not_allowed"))
			.exchange()
			.expectStatus()
			.isForbidden()
			.expectHeader()
			.contentType(MediaType.APPLICATION_PROBLEM_JSON)
			.expectBody()
			.jsonPath("$.type")
			.isEqualTo("urn:slotkeeper:problem:insufficient-privilege")
			.jsonPath("$.sqlState")
			.isEqualTo("42501")
			.jsonPath("$.detail")
			.value((d) -> assertThat(d.toString()).contains("REPLICATION").contains("ALTER ROLE norepl REPLICATION"));
		assertThat(exists("not_allowed")).isFalse();
		viewer().get().uri("/api/v1/targets/norepl/slots").exchange().expectStatus().isOk();
	}

	@Test
	void everyChangeIsAudited() {
		createSlot("audited");
		operator().delete().uri("/api/v1/targets/main/slots/audited?dryRun=true").exchange().expectStatus().isOk();
		operator().post().uri("/api/v1/targets/main/slots/audited/recreate").exchange().expectStatus().isEqualTo(409);
		operator().delete().uri("/api/v1/targets/main/slots/audited").exchange().expectStatus().isNoContent();
		viewer().get()
			.uri("/api/v1/audit")
			.exchange()
			.expectStatus()
			.isOk()
			.expectBody()
			.jsonPath("$[0].action")
			.isEqualTo("slot.drop")
			.jsonPath("$[0].outcome")
			.isEqualTo("done")
			.jsonPath("$[0].actor")
			.isEqualTo("ci")
			.jsonPath("$[0].slot")
			.isEqualTo("audited")
			.jsonPath("$[1].action")
			.isEqualTo("slot.recreate")
			.jsonPath("$[1].outcome")
			.isEqualTo("refused")
			.jsonPath("$[1].status")
			.isEqualTo(409)
			.jsonPath("$[2].outcome")
			.isEqualTo("dry-run")
			.jsonPath("$[2].parameters.dryRun")
			.isEqualTo(true);
		operator().delete().uri("/api/v1/targets/main/slots/audited").exchange().expectStatus().isNotFound();
	}

}
