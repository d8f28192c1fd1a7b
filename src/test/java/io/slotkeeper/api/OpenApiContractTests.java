package io.slotkeeper.api;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

import org.junit.jupiter.api.Test;

import io.slotkeeper.ApplicationTestSupport;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code openapi.yaml} at the repository root is the API's contract: it must be what the running application
 * serves. {@code ./mvnw test -Dtest=OpenApiContractTests -Dopenapi.write=true} rewrites it from the application.
 */
class OpenApiContractTests extends ApplicationTestSupport {

	private static final Path CONTRACT = Path.of("openapi.yaml");

	@Test
	void openapiYamlIsWhatTheApplicationServes() throws IOException {
		String served = new String(client().get().uri("/v3/api-docs.yaml").exchange().expectStatus().isOk()
			.expectBody().returnResult().getResponseBodyContent(), StandardCharsets.UTF_8);
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

}
