package io.slotkeeper.api;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.Map;

import org.junit.jupiter.api.Test;

import org.springframework.http.MediaType;

import io.slotkeeper.ApplicationTestSupport;
import io.slotkeeper.testbed.PostgresTestBed;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * What a careless or hostile caller sends gets a problem, whoever rejects it: a plugin
 * the server does not have (the caller's mistake, 422 naming the plugins it has, nothing
 * created), broken JSON (400 saying where), and what Tomcat or the firewall reject before
 * the API sees it (TRACE, encoded dots, control characters, a huge header), each
 * {@code application/problem+json}.
 */
class HostileInputTests extends ApplicationTestSupport {

	@Test
	void aPluginTheServerDoesNotHaveIsTheCallersMistakeAndCreatesNothing() {
		client().post()
			.uri("/api/v1/targets/up/slots")
			.header("Authorization", "Bearer " + OPERATOR)
			.contentType(MediaType.APPLICATION_JSON)
			.body(Map.of("name", "bad_plugin", "plugin", "nope"))
			.exchange()
			.expectStatus()
			.isEqualTo(422)
			.expectHeader()
			.contentTypeCompatibleWith(MediaType.APPLICATION_PROBLEM_JSON)
			.expectBody()
			.jsonPath("$.detail")
			.value((detail) -> assertThat(detail.toString()).contains("no logical decoding output plugin 'nope'")
				.contains("pgoutput"));
		assertThat(PostgresTestBed.shared()
			.queryForString("postgres", "SELECT count(*) FROM pg_replication_slots WHERE slot_name = 'bad_plugin'"))
			.isEqualTo("0");
	}

	@Test
	void brokenJsonSaysWhere() {
		client().post()
			.uri("/api/v1/targets/up/slots")
			.header("Authorization", "Bearer " + OPERATOR)
			.contentType(MediaType.APPLICATION_JSON)
			.body("{\"name\": \"x\",\n \"plugin\": }")
			.exchange()
			.expectStatus()
			.isBadRequest()
			.expectHeader()
			.contentTypeCompatibleWith(MediaType.APPLICATION_PROBLEM_JSON)
			.expectBody()
			.jsonPath("$.detail")
			.value((detail) -> assertThat(detail.toString()).contains("at line 2, column"));
		client().post()
			.uri("/api/v1/targets/up/slots")
			.header("Authorization", "Bearer " + OPERATOR)
			.contentType(MediaType.APPLICATION_JSON)
			.body("{\"name\": \"x\", \"twoPhase\": [1]}")
			.exchange()
			.expectStatus()
			.isBadRequest()
			.expectBody()
			.jsonPath("$.detail")
			.value((detail) -> assertThat(detail.toString()).contains("at field 'twoPhase'"));
	}

	@Test
	void aPathVariableThatBreaksItsRuleIsNamedWithTheRule() {
		client().get()
			.uri("/api/v1/targets/Not_A_Name/slots")
			.header("Authorization", "Bearer " + VIEWER)
			.exchange()
			.expectStatus()
			.isBadRequest()
			.expectHeader()
			.contentTypeCompatibleWith(MediaType.APPLICATION_PROBLEM_JSON)
			.expectBody()
			.jsonPath("$.detail")
			.value((detail) -> assertThat(detail.toString()).startsWith("target: must match \"^[a-z0-9]")
				.doesNotContain("Validation failure"));
	}

	@Test
	void whatTheServerRejectsBeforeTheApiIsAProblemToo() throws IOException {
		String token = "Authorization: Bearer " + VIEWER + "\r\n";
		for (String request : new String[] { "TRACE /api/v1/targets HTTP/1.1\r\n" + token,
				"GET /api/v1/targets/%2e%2e/up HTTP/1.1\r\n" + token,
				"GET /api/v1/targets/up%0d%0aactor=bob HTTP/1.1\r\n" + token,
				"GET /api/v1/targets HTTP/1.1\r\nAuthorization: Bearer " + "x".repeat(10_240) + "\r\n" }) {
			String answer = send(request + "Host: localhost\r\nAccept: text/html\r\nConnection: close\r\n\r\n");
			String head = answer.substring(0, Math.max(0, answer.indexOf("\r\n\r\n")));
			assertThat(head).as(request.lines().findFirst().orElseThrow())
				.matches("(?s)HTTP/1\\.1 4\\d\\d .*")
				.containsIgnoringCase("Content-Type: application/problem+json");
			assertThat(answer.substring(head.length())).contains("\"status\":4")
				.doesNotContain("bob")
				.doesNotContain("<html");
		}
	}

	private String send(String request) throws IOException {
		try (Socket socket = new Socket(InetAddress.getLoopbackAddress(), this.port)) {
			socket.setSoTimeout(10_000);
			OutputStream out = socket.getOutputStream();
			out.write(request.getBytes(StandardCharsets.ISO_8859_1));
			out.flush();
			InputStream in = socket.getInputStream();
			return new String(in.readAllBytes(), StandardCharsets.ISO_8859_1);
		}
	}

}
