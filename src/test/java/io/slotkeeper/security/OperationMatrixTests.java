package io.slotkeeper.security;

import java.io.IOException;
import java.io.Reader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.yaml.snakeyaml.Yaml;

import org.springframework.http.HttpMethod;
import org.springframework.http.MediaType;

import io.slotkeeper.ApplicationTestSupport;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Every operation of {@code openapi.yaml}, read from the file so that a new one is
 * covered without editing this test: a mutating one answers a viewer 403 and no token
 * 401, before anything runs; a read answers a viewer anything but 401 or 403.
 */
class OperationMatrixTests extends ApplicationTestSupport {

	@SuppressWarnings("unchecked")
	static Stream<Arguments> operations() throws IOException {
		Map<String, Object> contract;
		try (Reader reader = Files.newBufferedReader(Path.of("openapi.yaml"))) {
			contract = new Yaml().load(reader);
		}
		List<Arguments> operations = new ArrayList<>();
		((Map<String, Map<String, Object>>) contract.get("paths")).forEach((path, methods) -> methods.keySet()
			.forEach((method) -> operations.add(Arguments.of(method.toUpperCase(),
					path.replace("{target}", "idle").replace("{slot}", "matrix_slot")))));
		assertThat(operations).as("operations in openapi.yaml").hasSizeGreaterThanOrEqualTo(9);
		return operations.stream();
	}

	@ParameterizedTest(name = "{0} {1}")
	@MethodSource("operations")
	void aViewerMayReadButNeverChange(String method, String path) {
		var viewer = client().method(HttpMethod.valueOf(method))
			.uri(path)
			.header("Authorization", "Bearer " + VIEWER)
			.contentType(MediaType.APPLICATION_JSON)
			.body("{\"name\":\"matrix_slot\"}")
			.exchange();
		if (method.equals("GET")) {
			viewer.expectStatus().value((status) -> assertThat(status).isNotIn(401, 403));
			return;
		}
		viewer.expectStatus()
			.isForbidden()
			.expectHeader()
			.contentType(MediaType.APPLICATION_PROBLEM_JSON)
			.expectBody()
			.jsonPath("$.type")
			.isEqualTo("urn:slotkeeper:problem:forbidden");
		client().method(HttpMethod.valueOf(method)).uri(path).exchange().expectStatus().isUnauthorized();
	}

}
