package io.slotkeeper;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.http.MediaType;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;
import org.springframework.test.web.servlet.client.RestTestClient;

import io.slotkeeper.testbed.PostgresServer;
import io.slotkeeper.testbed.SlotRecipes;
import io.slotkeeper.testbed.TestTokens;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * A database whose owner is not slot-keeper's friend: it moved {@code public} ahead of
 * {@code pg_catalog} in the database's {@code search_path}, planted overloads of every
 * function slot-keeper calls and views named like the catalog views it reads, each
 * writing {@code current_user} into a table, and made the tables slot-keeper creates (the
 * heal ledger, a heartbeat table) first, with triggers. After beats, polls, a heal and
 * API calls, none of that code ran: slot-keeper's sessions search only
 * {@code pg_catalog}, and tables it did not make are refused.
 */
@Tag("pg-compat")
@Tag("pg-each")
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT)
class HostileOwnerTests {

	private static final String DATABASE = "hostile";

	private static final List<String> SIGNAL_TABLES = List.of("trigger", "check", "default", "index", "xml", "domain",
			"domaintype", "generated", "plain");

	private static final String OPERATOR = "hostile-operator-token";

	private static PostgresServer server;

	@LocalServerPort
	int port;

	static synchronized PostgresServer server() {
		if (server == null) {
			PostgresServer started = SlotRecipes.lossyServer(DATABASE);
			started.execute("postgres", "CREATE ROLE evil LOGIN", "CREATE ROLE keeper LOGIN REPLICATION",
					"ALTER DATABASE " + DATABASE + " OWNER TO evil",
					"GRANT CREATE ON DATABASE " + DATABASE + " TO keeper",
					"ALTER DATABASE " + DATABASE + " SET search_path = public, pg_catalog");
			started.execute(DATABASE, "GRANT ALL ON SCHEMA public TO evil", "ALTER TABLE orders OWNER TO evil");
			started.execute(DATABASE, traps());
			server = started;
		}
		return server;
	}

	// What the owner plants, as the owner: every call records who made it.
	private static String[] traps() {
		String record = "SELECT CASE WHEN public.trap('%s') THEN %s END";
		return new String[] { "SET ROLE evil", "GRANT USAGE, CREATE ON SCHEMA public TO PUBLIC",
				"CREATE TABLE public.hijacked (who text, what text)", "GRANT INSERT ON public.hijacked TO PUBLIC",
				"CREATE FUNCTION public.trap(what text) RETURNS boolean LANGUAGE plpgsql AS $$ BEGIN"
						+ " INSERT INTO public.hijacked VALUES (current_user, what); RETURN true; END $$",
				"CREATE FUNCTION public.trap_trigger() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN"
						+ " PERFORM public.trap(TG_TABLE_NAME); RETURN NULL; END $$",
				fn("set_config(text, varchar, boolean) RETURNS text",
						record.formatted("set_config", "pg_catalog.set_config($1, $2::text, $3)")),
				fn("set_config(text, text, boolean) RETURNS text",
						record.formatted("set_config", "pg_catalog.set_config($1, $2, $3)")),
				fn("current_setting(text) RETURNS text",
						record.formatted("current_setting", "pg_catalog.current_setting($1)")),
				fn("current_setting(text, boolean) RETURNS text",
						record.formatted("current_setting", "pg_catalog.current_setting($1, $2)")),
				fn("pg_logical_emit_message(boolean, varchar, text) RETURNS pg_lsn",
						record.formatted("pg_logical_emit_message",
								"pg_catalog.pg_logical_emit_message($1, $2::text, $3)")),
				fn("pg_logical_emit_message(boolean, text, text) RETURNS pg_lsn",
						record.formatted("pg_logical_emit_message", "pg_catalog.pg_logical_emit_message($1, $2, $3)")),
				fn("pg_current_wal_lsn() RETURNS pg_lsn",
						record.formatted("pg_current_wal_lsn", "pg_catalog.pg_current_wal_lsn()")),
				fn("pg_is_in_recovery() RETURNS boolean",
						record.formatted("pg_is_in_recovery", "pg_catalog.pg_is_in_recovery()")),
				fn("current_database() RETURNS name",
						record.formatted("current_database", "pg_catalog.current_database()")),
				fn("now() RETURNS timestamptz", record.formatted("now", "pg_catalog.now()")),
				fn("pg_try_advisory_lock(bigint) RETURNS boolean",
						record.formatted("pg_try_advisory_lock", "pg_catalog.pg_try_advisory_lock($1)")),
				fn("pg_try_advisory_lock(integer, integer) RETURNS boolean",
						record.formatted("pg_try_advisory_lock", "pg_catalog.pg_try_advisory_lock($1, $2)")),
				fn("pg_advisory_unlock(bigint) RETURNS boolean",
						record.formatted("pg_advisory_unlock", "pg_catalog.pg_advisory_unlock($1)")),
				fn("pg_drop_replication_slot(varchar) RETURNS void",
						"SELECT public.trap('pg_drop_replication_slot'); SELECT pg_catalog.pg_drop_replication_slot($1)"),
				fn("pg_create_logical_replication_slot(varchar, varchar) RETURNS TABLE (slot_name name, lsn pg_lsn)",
						"SELECT public.trap('create'); SELECT * FROM pg_catalog.pg_create_logical_replication_slot($1, $2)"),
				fn("pg_create_logical_replication_slot(varchar, varchar, boolean, boolean)"
						+ " RETURNS TABLE (slot_name name, lsn pg_lsn)",
						"SELECT public.trap('create'); SELECT * FROM pg_catalog.pg_create_logical_replication_slot($1, $2)"),
				fn("pg_create_logical_replication_slot(varchar, varchar, boolean, boolean, boolean)"
						+ " RETURNS TABLE (slot_name name, lsn pg_lsn)",
						"SELECT public.trap('create'); SELECT * FROM pg_catalog.pg_create_logical_replication_slot($1, $2)"),
				"CREATE VIEW public.pg_replication_slots AS SELECT * FROM pg_catalog.pg_replication_slots"
						+ " WHERE public.trap('pg_replication_slots')",
				"CREATE VIEW public.pg_locks AS SELECT * FROM pg_catalog.pg_locks WHERE public.trap('pg_locks')",
				"CREATE VIEW public.pg_roles AS SELECT * FROM pg_catalog.pg_roles WHERE public.trap('pg_roles')",
				// The tables slot-keeper makes, made first, open to everyone, with
				// triggers.
				"CREATE SCHEMA slotkeeper", "GRANT ALL ON SCHEMA slotkeeper TO PUBLIC",
				"CREATE TABLE slotkeeper.heals (id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY, slot text NOT NULL,"
						+ " at timestamptz NOT NULL, succeeded boolean NOT NULL)",
				"CREATE TABLE public.slotkeeper_heals (slot text NOT NULL, at timestamptz NOT NULL,"
						+ " succeeded boolean NOT NULL)",
				"CREATE TABLE public.slotkeeper_heartbeat (id integer PRIMARY KEY, beat_at timestamptz NOT NULL)",
				"GRANT ALL ON slotkeeper.heals, public.slotkeeper_heals, public.slotkeeper_heartbeat TO PUBLIC",
				"CREATE TRIGGER trap BEFORE INSERT OR UPDATE OR DELETE ON slotkeeper.heals"
						+ " FOR EACH STATEMENT EXECUTE FUNCTION public.trap_trigger()",
				"CREATE TRIGGER trap BEFORE INSERT OR UPDATE OR DELETE ON public.slotkeeper_heals"
						+ " FOR EACH STATEMENT EXECUTE FUNCTION public.trap_trigger()",
				"CREATE TRIGGER trap BEFORE INSERT OR UPDATE OR DELETE ON public.slotkeeper_heartbeat"
						+ " FOR EACH STATEMENT EXECUTE FUNCTION public.trap_trigger()",
				// Signal tables of the owner's making, each running the owner's code on
				// an insert, and a plain one.
				"CREATE TABLE public.signal_trigger (id varchar(42) PRIMARY KEY, type varchar(32), data varchar(2048))",
				"CREATE TRIGGER trap BEFORE INSERT ON public.signal_trigger FOR EACH ROW EXECUTE FUNCTION"
						+ " public.trap_trigger()",
				"CREATE TABLE public.signal_check (id varchar(42) PRIMARY KEY, type varchar(32), data varchar(2048)"
						+ " CHECK (public.trap('check')))",
				"CREATE TABLE public.signal_default (id varchar(42) PRIMARY KEY, type varchar(32), data varchar(2048),"
						+ " noted boolean DEFAULT public.trap('default'))",
				"CREATE TABLE public.signal_index (id varchar(42) PRIMARY KEY, type varchar(32), data varchar(2048))",
				"CREATE FUNCTION public.trap_immutable(what text) RETURNS text LANGUAGE plpgsql IMMUTABLE AS $$ BEGIN"
						+ " PERFORM public.trap('index'); RETURN what; END $$",
				"CREATE INDEX ON public.signal_index (public.trap_immutable(data))",
				// Two that a deny-list of functions outside pg_catalog let through:
				// query_to_xml runs any SQL text,
				// and a domain's check is a dependency on a type, not on a function.
				"CREATE TABLE public.signal_xml (id varchar(42) PRIMARY KEY, type varchar(32), data varchar(2048),"
						+ " x xml DEFAULT pg_catalog.query_to_xml('select public.trap(''xml'')', true, false, ''))",
				"CREATE DOMAIN public.d AS text CHECK (public.trap('domain'))",
				"CREATE TABLE public.signal_domain (id varchar(42) PRIMARY KEY, type varchar(32), data varchar(2048),"
						+ " noted text DEFAULT ('a'::public.d)::text)",
				"CREATE TABLE public.signal_domaintype (id varchar(42) PRIMARY KEY, type public.d, data varchar(2048))",
				"CREATE TABLE public.signal_generated (id varchar(42) PRIMARY KEY, type varchar(32),"
						+ " data varchar(2048) GENERATED ALWAYS AS (public.trap_immutable(type)) STORED)",
				"CREATE TABLE public.signal_plain (id varchar(42) PRIMARY KEY, type varchar(32) NOT NULL,"
						+ " data varchar(2048))",
				"GRANT INSERT ON public.signal_trigger, public.signal_check, public.signal_default,"
						+ " public.signal_index, public.signal_xml, public.signal_domain, public.signal_domaintype,"
						+ " public.signal_generated, public.signal_plain TO PUBLIC",
				"RESET ROLE" };
	}

	private static String fn(String signature, String body) {
		return "CREATE FUNCTION public." + signature + " LANGUAGE sql AS $$ " + body + " $$";
	}

	@AfterAll
	static void stop() {
		if (server != null) {
			server.close();
			server = null;
		}
	}

	@DynamicPropertySource
	static void targets(DynamicPropertyRegistry registry) {
		PostgresServer postgres = server();
		registry.add("slotkeeper.targets[0].name", () -> "hostile");
		registry.add("slotkeeper.targets[0].url", () -> postgres.jdbcUrl(DATABASE));
		registry.add("slotkeeper.targets[0].username", () -> "keeper");
		registry.add("slotkeeper.targets[0].heartbeat.interval", () -> "200ms");
		registry.add("slotkeeper.targets[0].slots-poll-interval", () -> "200ms");
		registry.add("slotkeeper.targets[0].slots[0].name", () -> "healing");
		registry.add("slotkeeper.targets[0].slots[0].on-lost", () -> "recreate");
		registry.add("slotkeeper.targets[1].name", () -> "hostile-table");
		registry.add("slotkeeper.targets[1].url", () -> postgres.jdbcUrl(DATABASE));
		registry.add("slotkeeper.targets[1].username", () -> "keeper");
		registry.add("slotkeeper.targets[1].heartbeat.interval", () -> "200ms");
		registry.add("slotkeeper.targets[1].heartbeat.mode", () -> "table");
		registry.add("slotkeeper.targets[1].heartbeat.create-table", () -> "true");
		registry.add("slotkeeper.targets[1].heartbeat.backoff.min", () -> "100ms");
		registry.add("slotkeeper.targets[1].heartbeat.backoff.max", () -> "200ms");
		registry.add("slotkeeper.targets[1].heartbeat.unhealthy-after", () -> "1");
		for (int i = 0; i < SIGNAL_TABLES.size(); i++) {
			String kind = SIGNAL_TABLES.get(i);
			int n = i + 1;
			registry.add("slotkeeper.targets[0].slots[" + n + "].name", () -> "signalled_" + kind);
			registry.add("slotkeeper.targets[0].slots[" + n + "].resnapshot.mode", () -> "debezium-signal");
			registry.add("slotkeeper.targets[0].slots[" + n + "].resnapshot.signal-table",
					() -> "public.signal_" + kind);
			registry.add("slotkeeper.targets[0].slots[" + n + "].resnapshot.collections", () -> "public.orders");
		}
		TestTokens.register(registry, "hostile-viewer-token", OPERATOR);
	}

	@Test
	void aSignalTableThatWouldRunTheOwnersCodeIsRefusedAndAPlainOneGetsTheRow() {
		RestTestClient operator = RestTestClient.bindToServer()
			.baseUrl("http://localhost:" + this.port)
			.defaultHeader("Authorization", "Bearer " + OPERATOR)
			.build();
		Map<String, String> said = Map.of("trigger", "has a trigger", "check", "has a constraint other than", "default",
				"has the columns id, type, data, noted", "index", "has an index that is not a plain B-tree", "xml",
				"has the columns id, type, data, x", "domain", "has the columns id, type, data, noted", "domaintype",
				"has the column type of type public.d, not a built-in text type", "generated",
				"has the generated column data");
		said.forEach((kind, why) -> operator.post()
			.uri("/api/v1/targets/hostile/slots/signalled_" + kind + "/resnapshot")
			.exchange()
			.expectStatus()
			.isEqualTo(422)
			.expectBody()
			.jsonPath("$.detail")
			.value((detail) -> assertThat(detail.toString()).contains("public.signal_" + kind)
				.contains(why)
				.contains("would run as slot-keeper's role")));
		operator.post()
			.uri("/api/v1/targets/hostile/slots/signalled_plain/resnapshot")
			.exchange()
			.expectStatus()
			.isOk();
		assertThat(server().queryForString(DATABASE, "SELECT count(*) FROM public.signal_plain")).isEqualTo("1");
		assertThat(server().queryForString(DATABASE,
				said.keySet()
					.stream()
					.map((kind) -> "(SELECT count(*) FROM public.signal_" + kind + ")")
					.collect(Collectors.joining(" + ", "SELECT ", ""))))
			.isEqualTo("0");
		assertThat(
				server().queryForString(DATABASE,
						"SELECT coalesce(string_agg(who || ' ran ' || what, ', '), 'nothing') FROM public.hijacked"
								+ " WHERE who = 'keeper'"))
			.as("what ran the owner's code as slot-keeper")
			.isEqualTo("nothing");
	}

	@Test
	void nothingTheOwnerPlantedRunsAsSlotKeeper() {
		RestTestClient operator = RestTestClient.bindToServer()
			.baseUrl("http://localhost:" + this.port)
			.defaultHeader("Authorization", "Bearer " + OPERATOR)
			.build();
		RestTestClient open = RestTestClient.bindToServer().baseUrl("http://localhost:" + this.port).build();
		await().atMost(Duration.ofSeconds(20))
			.untilAsserted(() -> open.get().uri("/actuator/health/heartbeat/hostile").exchange().expectStatus().isOk());
		await().atMost(Duration.ofSeconds(20))
			.untilAsserted(() -> open.get()
				.uri("/actuator/health/heartbeat/hostile-table")
				.exchange()
				.expectStatus()
				.isEqualTo(503)
				.expectBody()
				.jsonPath("$.details.reason")
				.value((reason) -> assertThat(reason.toString())
					.contains("public.slotkeeper_heartbeat is not slot-keeper's own")
					.contains("owned by role evil")));

		operator.post()
			.uri("/api/v1/targets/hostile/slots")
			.contentType(MediaType.APPLICATION_JSON)
			.body(Map.of("name", "made", "plugin", "pgoutput"))
			.exchange()
			.expectStatus()
			.isCreated();
		operator.get()
			.uri("/api/v1/targets/hostile/slots")
			.exchange()
			.expectStatus()
			.isOk()
			.expectBody()
			.jsonPath("$[?(@.slotName == 'made')].walStatus")
			.isEqualTo(List.of("reserved"));
		operator.delete()
			.uri("/api/v1/targets/hostile/slots/made")
			.header("If-Match", "*")
			.exchange()
			.expectStatus()
			.is2xxSuccessful();

		server().execute(DATABASE, "SELECT pg_catalog.pg_create_logical_replication_slot('healing', 'pgoutput')");
		String lostFlush = server().queryForString("postgres",
				"SELECT confirmed_flush_lsn FROM pg_replication_slots WHERE slot_name = 'healing'");
		SlotRecipes.lose(server(), DATABASE, "healing");
		// Creating the slot anew waits for the transactions running at its start, seen in
		// running-xacts records the
		// bgwriter logs every 15 s: with beats every 200 ms that can be two records, 30
		// s.
		await().atMost(Duration.ofSeconds(45))
			.until(() -> "reserved".equals(server().queryForString("postgres",
					"SELECT wal_status FROM pg_replication_slots WHERE slot_name = 'healing'")));
		assertThat(server().queryForString("postgres",
				"SELECT confirmed_flush_lsn FROM pg_replication_slots WHERE slot_name = 'healing'"))
			.as("healed: a new slot")
			.isNotEqualTo(lostFlush);
		await().atMost(Duration.ofSeconds(10))
			.untilAsserted(() -> open.get()
				.uri("/actuator/health/slots/hostile")
				.exchange()
				.expectBody()
				.jsonPath("$.details.healingBudget")
				.value((reason) -> assertThat(reason.toString()).contains("slotkeeper.heals is not slot-keeper's own")
					.contains("owned by role evil")));
		// Without a ledger a restart would start the budget from zero: a slot is healed
		// once per instance life.
		SlotRecipes.lose(server(), DATABASE, "healing");
		await().atMost(Duration.ofSeconds(20))
			.untilAsserted(() -> operator.get()
				.uri("/api/v1/audit")
				.exchange()
				.expectBody()
				.jsonPath("$[?(@.action == 'slot.heal' && @.outcome == 'refused')].detail")
				.value((refused) -> assertThat(refused.toString()).contains("healed once per instance life")));
		assertThat(server().queryForString("postgres",
				"SELECT wal_status FROM pg_replication_slots WHERE slot_name = 'healing'"))
			.isEqualTo("lost");

		assertThat(server().queryForString(DATABASE,
				"SELECT coalesce(string_agg(who || ' ran ' || what, ', '), 'nothing') FROM public.hijacked"))
			.as("what ran the owner's code")
			.isEqualTo("nothing");
		assertThat(server().queryForString(DATABASE, "SELECT count(*) FROM public.slotkeeper_heartbeat"))
			.isEqualTo("0");
	}

}
