package io.slotkeeper.api;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.springframework.test.web.servlet.client.RestTestClient;

import io.slotkeeper.ApplicationTestSupport;
import io.slotkeeper.testbed.OpenApiResponses;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * {@code openapi.yaml} at the repository root is the API's contract: it must be what the
 * running application serves.
 * {@code ./mvnw test -Dtest=OpenApiContractTests -Dopenapi.write=true} rewrites it from
 * the application.
 */
class OpenApiContractTests extends ApplicationTestSupport {

	private static final Path CONTRACT = Path.of("openapi.yaml");

	@Test
	void openapiYamlIsWhatTheApplicationServes() throws IOException {
		String served = new String(client().get()
			.uri("/v3/api-docs.yaml")
			.exchange()
			.expectStatus()
			.isOk()
			.expectBody()
			.returnResult()
			.getResponseBodyContent(), StandardCharsets.UTF_8);
		if (Boolean.getBoolean("openapi.write")) {
			Files.writeString(CONTRACT, served);
		}
		assertThat(CONTRACT).as("openapi.yaml at the repository root").exists();
		assertThat(Files.readString(CONTRACT))
			.as("openapi.yaml differs from what the application serves; if the change is intended, regenerate it with"
					+ " ./mvnw test -Dtest=OpenApiContractTests -Dopenapi.write=true and review the diff")
			.isEqualTo(served);
		assertThat(served).contains("/api/v1/targets/{target}/slots/{slot}/recreate")
			.contains("application/problem+json")
			.contains("bearer");
	}

	@Test
	void realResponsesHaveNoMemberTheirSchemaLacks() {
		OpenApiResponses contract = OpenApiResponses.contract();
		Map<String, String> paths = new LinkedHashMap<>();
		paths.put("/api/v1/targets", "/api/v1/targets");
		paths.put("/api/v1/targets/{target}", "/api/v1/targets/up");
		paths.put("/api/v1/targets/{target}/slots", "/api/v1/targets/up/slots");
		paths.put("/api/v1/targets/{target}/settings", "/api/v1/targets/up/settings");
		paths.put("/api/v1/overview", "/api/v1/overview");
		paths.put("/api/v1/connectors", "/api/v1/connectors");
		paths.put("/api/v1/audit", "/api/v1/audit");
		paths.put("/api/v1/me", "/api/v1/me");
		// settings are answered 503 until the target's first good poll, as documented
		await().atMost(Duration.ofSeconds(30))
			.until(() -> get("/api/v1/targets/up/settings").expectBody().returnResult().getStatus().value() == 200);
		paths.forEach((template, uri) -> {
			String body = new String(
					get(uri).expectStatus().isOk().expectBody().returnResult().getResponseBodyContent(),
					StandardCharsets.UTF_8);
			assertThat(contract.outside(template, body)).as("GET " + uri + " against " + template).isEmpty();
		});
	}

	private RestTestClient.ResponseSpec get(String uri) {
		return client().get().uri(uri).header("Authorization", "Bearer " + VIEWER).exchange();
	}

}
