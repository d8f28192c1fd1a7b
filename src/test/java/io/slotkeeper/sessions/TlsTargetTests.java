package io.slotkeeper.sessions;

import java.time.Duration;
import java.util.Map;

import com.jayway.jsonpath.JsonPath;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;
import org.springframework.test.web.servlet.client.RestTestClient;

import io.slotkeeper.testbed.TestTokens;
import io.slotkeeper.testbed.TlsServer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Targets over TLS on a real server with {@code ssl=on}, a certificate for
 * {@code localhost} from a CA made for the test, and a role {@code pg_hba.conf} admits
 * only with {@code hostssl}: {@code sslmode=verify-full} with the right CA and host name
 * heartbeats and serves the slot API; a wrong CA, a wrong host name and
 * {@code sslmode=disable} make their target DOWN with a reason in words, while the others
 * keep working. On every supported version.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT)
@Tag("pg-compat")
class TlsTargetTests {

	private static final String VIEWER = "tls-viewer-token";

	private static final String DATABASE = "tls";

	private static TlsServer tls;

	@LocalServerPort
	int port;

	static synchronized TlsServer tls() {
		if (tls == null) {
			tls = TlsServer.start(DATABASE);
			tls.server().execute(DATABASE, "SELECT pg_create_logical_replication_slot('tls_slot', 'pgoutput')");
		}
		return tls;
	}

	@DynamicPropertySource
	static void properties(DynamicPropertyRegistry registry) {
		Map<String, String> urls = Map.of("verified",
				tls().url("localhost", DATABASE, "sslmode=verify-full&sslrootcert=" + tls().pki().ca()), "wrong-ca",
				tls().url("localhost", DATABASE, "sslmode=verify-full&sslrootcert=" + tls().pki().otherCa()),
				"wrong-host", tls().url("127.0.0.1", DATABASE, "sslmode=verify-full&sslrootcert=" + tls().pki().ca()),
				"plain", tls().url("localhost", DATABASE, "sslmode=disable"), "no-ca-file",
				tls().url("localhost", DATABASE, "sslmode=verify-full&sslrootcert=/etc/slot-keeper-ca/ca.crt"));
		int i = 0;
		for (Map.Entry<String, String> target : new java.util.TreeMap<>(urls).entrySet()) {
			String prefix = "slotkeeper.targets[" + i++ + "].";
			registry.add(prefix + "name", target::getKey);
			registry.add(prefix + "url", target::getValue);
			registry.add(prefix + "username", () -> TlsServer.ROLE);
			registry.add(prefix + "heartbeat.interval", () -> "300ms");
			registry.add(prefix + "heartbeat.backoff.max", () -> "1s");
			registry.add(prefix + "slots-poll-interval", () -> "300ms");
		}
		TestTokens.register(registry, VIEWER, "tls-operator-token");
	}

	@Test
	void verifyFullWithTheRightCaAndHostHeartbeatsAndServesTheSlotApi() {
		await().atMost(Duration.ofSeconds(30))
			.untilAsserted(
					() -> assertThat(JsonPath.<String>read(target("verified"), "$.heartbeat.health")).isEqualTo("UP"));
		String ssl = body("/api/v1/targets/verified/slots");
		assertThat(JsonPath.<java.util.List<String>>read(ssl, "$[*].slotName")).contains("tls_slot");
		assertThat(tls().server()
			.queryForString("postgres", "SELECT count(*) > 0 FROM pg_stat_ssl JOIN pg_stat_activity"
					+ " USING (pid) WHERE usename = 'tlsonly' AND ssl"))
			.isEqualTo("t");
	}

	@Test
	void aWrongCaAWrongHostAndNoTlsAreDownInWordsWhileTheVerifiedTargetKeepsBeating() {
		Map<String, String> expected = Map.of("wrong-ca",
				"TLS: the server's certificate is not signed by a CA slot-keeper trusts; sslrootcert in the"
						+ " URL must name the CA that signed it",
				"wrong-host",
				"TLS: the server's certificate does not name host 127.0.0.1 of the URL; with "
						+ "sslmode=verify-full the URL must use a name the certificate was issued for",
				"plain",
				"TLS: the server admits this role only over TLS (pg_hba.conf rejects connection for host "
						+ "\"127.0.0.1\", user \"tlsonly\", database \"tls\", ",
				"no-ca-file", "(is the caBundle ConfigMap mounted at the path sslrootcert names?)");
		await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> expected.forEach((name, words) -> {
			String target = target(name);
			assertThat(JsonPath.<String>read(target, "$.heartbeat.health")).as(name).isEqualTo("DOWN");
			assertThat(JsonPath.<String>read(target, "$.heartbeat.reason")).as(name)
				.contains(words)
				.doesNotContain("\tat ")
				.doesNotContain("sun.security");
			assertThat(JsonPath.<String>read(target, "$.heartbeat.lastError.message")).as(name)
				.startsWith("TLS: ")
				.contains(words);
			if (name.equals("plain")) {
				// PostgreSQL 14 and later end the server's message with "no encryption",
				// 13 with "SSL off".
				assertThat(JsonPath.<String>read(target, "$.heartbeat.reason"))
					.endsWith("); add sslmode=verify-full and sslrootcert to the URL");
			}
		}));
		expected.keySet()
			.forEach((name) -> System.out
				.println("TLS " + name + ": " + JsonPath.read(target(name), "$.heartbeat.reason")));
		assertThat(JsonPath.<String>read(target("verified"), "$.heartbeat.health")).isEqualTo("UP");
		assertThat(JsonPath.<java.util.List<String>>read(body("/api/v1/overview?search=wrong-ca"),
				"$.targets[0].problems"))
			.anyMatch((problem) -> problem.contains("TLS: the server's certificate is not"));
	}

	private String target(String name) {
		return body("/api/v1/targets/" + name);
	}

	private String body(String path) {
		return RestTestClient.bindToServer()
			.baseUrl("http://localhost:" + this.port)
			.defaultHeader("Authorization", "Bearer " + VIEWER)
			.build()
			.get()
			.uri(path)
			.exchange()
			.expectStatus()
			.isOk()
			.returnResult(String.class)
			.getResponseBody();
	}

}
