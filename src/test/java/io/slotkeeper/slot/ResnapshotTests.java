package io.slotkeeper.slot;

import java.util.List;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The re-snapshot signal on a real server: after a recreate of a slot whose settings ask
 * for it, one {@code execute-snapshot} row in Debezium's signal table with the tables
 * from the connector's configuration; on demand with a dry run; and each thing that can
 * be missing said, without undoing the recreate.
 */
@Tag("pg-compat")
class ResnapshotTests extends SlotApiTestSupport {

	private static final String CONFIG = "{\"topic.prefix\":\"shop\",\"signal.data.collection\":\"public.debezium_signal\","
			+ "\"table.include.list\":\"public.orders, public.debezium_signal\"}";

	@BeforeEach
	void resetConnect() {
		connect().reset();
		connect().config(CONFIG);
		server().execute(DATABASE, "DELETE FROM debezium_signal");
	}

	@AfterEach
	void dropSlot() {
		server().execute(DATABASE, "SELECT pg_drop_replication_slot(slot_name) FROM pg_replication_slots"
				+ " WHERE slot_name = 'snapshotted'");
	}

	@Test
	void aRecreateSendsOneExecuteSnapshotSignalForTheConnectorsTablesOnceItRunsAgain() {
		createSlot("snapshotted");
		double sentBefore = sent();
		loseSlot("snapshotted");
		byte[] body = operator().post()
			.uri("/api/v1/targets/main/slots/snapshotted/recreate")
			.exchange()
			.expectStatus()
			.isOk()
			.expectBody()
			.jsonPath("$.connector.running")
			.isEqualTo(true)
			.jsonPath("$.resnapshot.collections")
			.isEqualTo(List.of("public.orders"))
			.jsonPath("$.resnapshot.notSentBecause")
			.doesNotExist()
			.returnResult()
			.getResponseBodyContent();
		String id = com.jayway.jsonpath.JsonPath.read(new String(body), "$.resnapshot.signalId");
		assertThat(server().queryForString(DATABASE, "SELECT type FROM debezium_signal WHERE id = '" + id + "'"))
			.isEqualTo("execute-snapshot");
		assertThat(server().queryForString(DATABASE,
				"SELECT (data::jsonb = '{\"data-collections\": [\"public.orders\"],"
						+ " \"type\": \"incremental\"}'::jsonb)::text FROM debezium_signal WHERE id = '" + id + "'"))
			.isEqualTo("true");
		viewer().get()
			.uri("/api/v1/audit")
			.exchange()
			.expectBody()
			.jsonPath("$[0].lsns.resnapshot")
			.isEqualTo("signal " + id + " for public.orders");
		assertThat(sent()).isEqualTo(sentBefore + 1);
	}

	@Test
	void aRecreateStillStandsAndSaysWhyNoSignalWasSentWhenTheConfigurationLacksOneOrHasPatterns() {
		createSlot("snapshotted");
		connect().config("{\"topic.prefix\":\"shop\",\"table.include.list\":\"public.orders\"}");
		double skippedBefore = counted("skipped");
		loseSlot("snapshotted");
		operator().post()
			.uri("/api/v1/targets/main/slots/snapshotted/recreate")
			.exchange()
			.expectStatus()
			.isOk()
			.expectBody()
			.jsonPath("$.newSlot.walStatus")
			.isEqualTo("reserved")
			.jsonPath("$.resnapshot.signalId")
			.doesNotExist()
			.jsonPath("$.resnapshot.notSentBecause")
			.value((why) -> assertThat(why.toString()).contains("no signal table"));
		// What the alert ReplicationSlotResnapshotNotSent counts.
		assertThat(counted("skipped")).isEqualTo(skippedBefore + 1);
		connect()
			.config("{\"signal.data.collection\":\"public.debezium_signal\",\"table.include.list\":\"public.ord.*\"}");
		operator().post()
			.uri("/api/v1/targets/main/slots/snapshotted/resnapshot")
			.exchange()
			.expectStatus()
			.isEqualTo(422)
			.expectBody()
			.jsonPath("$.detail")
			.value((detail) -> assertThat(detail.toString()).contains("patterns").contains("public.ord.*"));
		assertThat(server().queryForString(DATABASE, "SELECT count(*) FROM debezium_signal")).isEqualTo("0");
	}

	@Test
	void onDemandADryRunSaysWhatWouldBeSentThenOneRowIsInserted() {
		operator().post()
			.uri("/api/v1/targets/main/slots/snapshotted/resnapshot?dryRun=true")
			.exchange()
			.expectStatus()
			.isOk()
			.expectBody()
			.jsonPath("$.steps")
			.isEqualTo(List
				.of("insert an execute-snapshot signal (incremental) into public.debezium_signal for public.orders"));
		assertThat(server().queryForString(DATABASE, "SELECT count(*) FROM debezium_signal")).isEqualTo("0");
		operator().post()
			.uri("/api/v1/targets/main/slots/snapshotted/resnapshot")
			.exchange()
			.expectStatus()
			.isOk()
			.expectBody()
			.jsonPath("$.signalId")
			.exists()
			.jsonPath("$.collections")
			.isEqualTo(List.of("public.orders"));
		assertThat(server().queryForString(DATABASE, "SELECT count(*) FROM debezium_signal")).isEqualTo("1");
	}

	@Test
	void aRoleWithoutInsertOnTheSignalTableGets403BeforeAnythingIsInserted() {
		operator().post()
			.uri("/api/v1/targets/norepl/slots/norepl_snapshotted/resnapshot")
			.exchange()
			.expectStatus()
			.isForbidden()
			.expectBody()
			.jsonPath("$.type")
			.isEqualTo("urn:slotkeeper:problem:insufficient-privilege")
			.jsonPath("$.detail")
			.value((detail) -> assertThat(detail.toString()).contains("GRANT INSERT ON public.debezium_signal"));
		assertThat(server().queryForString(DATABASE, "SELECT count(*) FROM debezium_signal")).isEqualTo("0");
	}

	private double sent() {
		return counted("sent");
	}

	private double counted(String outcome) {
		java.util.regex.Matcher sent = java.util.regex.Pattern
			.compile("slotkeeper_slot_resnapshots_total\\{outcome=\"" + outcome
					+ "\",slot=\"snapshotted\",target=\"main\"} (\\S+)")
			.matcher(new String(client().get()
				.uri("/actuator/prometheus")
				.exchange()
				.expectBody()
				.returnResult()
				.getResponseBodyContent()));
		return sent.find() ? Double.parseDouble(sent.group(1)) : 0;
	}

}
