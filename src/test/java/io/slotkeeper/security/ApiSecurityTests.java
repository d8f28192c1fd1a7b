package io.slotkeeper.security;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import org.springframework.http.HttpMethod;
import org.springframework.http.MediaType;
import org.springframework.test.web.servlet.client.RestTestClient;

import io.slotkeeper.ApplicationTestSupport;

import static org.assertj.core.api.Assertions.assertThat;

class ApiSecurityTests extends ApplicationTestSupport {

	@ParameterizedTest(name = "{0} {1} with {2} -> {3}")
	@CsvSource({ "GET, /api/v1/targets, none, 401", "GET, /api/v1/targets, wrong, 401",
			"GET, /api/v1/targets, malformed, 401", "GET, /api/v1/targets, viewer, 200",
			"GET, /api/v1/targets, operator, 200", "POST, /api/v1/targets/up/heartbeat, none, 401",
			"POST, /api/v1/targets/up/heartbeat, wrong, 401", "POST, /api/v1/targets/up/heartbeat, viewer, 403",
			"POST, /api/v1/targets/up/heartbeat, operator, 200", "GET, /actuator/health/ping, none, 200",
			"GET, /actuator/health/liveness, none, 200", "GET, /actuator/health/readiness, none, 200",
			"GET, /actuator/prometheus, none, 200", "GET, /actuator/info, none, 200", "GET, /v3/api-docs, none, 200",
			"GET, /v3/api-docs.yaml, none, 200", "GET, /swagger-ui/index.html, none, 200",
			"GET, /actuator/env, none, 401", "GET, /actuator/env, operator, 403",
			"GET, /actuator/configprops, operator, 403", "GET, /actuator/beans, operator, 403",
			"GET, /somewhere-else, viewer, 403" })
	void whoMayCallWhat(String method, String path, String token, int expected) {
		RestTestClient.RequestHeadersSpec<?> request = client().method(HttpMethod.valueOf(method)).uri(path);
		switch (token) {
			case "viewer" -> request.header("Authorization", "Bearer " + VIEWER);
			case "operator" -> request.header("Authorization", "Bearer " + OPERATOR);
			case "wrong" -> request.header("Authorization", "Bearer not-a-configured-token");
			case "malformed" -> request.header("Authorization", "Basic " + VIEWER);
			default -> {
			}
		}
		RestTestClient.ResponseSpec response = request.exchange().expectStatus().isEqualTo(expected);
		if (expected == 401 || expected == 403) {
			response.expectHeader().contentType(MediaType.APPLICATION_PROBLEM_JSON);
			response.expectBody()
				.jsonPath("$.status")
				.isEqualTo(expected)
				.jsonPath("$.type")
				.value((type) -> assertThat(type.toString()).startsWith("urn:slotkeeper:problem:"));
		}
		if (expected == 401) {
			response.expectHeader().valueEquals("WWW-Authenticate", "Bearer realm=\"slot-keeper\"");
		}
	}

}
