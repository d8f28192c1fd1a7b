package io.slotkeeper.api;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import io.swagger.v3.oas.models.Components;
import io.swagger.v3.oas.models.OpenAPI;
import io.swagger.v3.oas.models.Operation;
import io.swagger.v3.oas.models.PathItem;
import io.swagger.v3.oas.models.info.Info;
import io.swagger.v3.oas.models.info.License;
import io.swagger.v3.oas.models.media.Content;
import io.swagger.v3.oas.models.media.IntegerSchema;
import io.swagger.v3.oas.models.media.MediaType;
import io.swagger.v3.oas.models.media.ObjectSchema;
import io.swagger.v3.oas.models.media.Schema;
import io.swagger.v3.oas.models.media.StringSchema;
import io.swagger.v3.oas.models.responses.ApiResponse;
import io.swagger.v3.oas.models.security.SecurityRequirement;
import io.swagger.v3.oas.models.security.SecurityScheme;
import io.swagger.v3.oas.models.servers.Server;
import org.springdoc.core.customizers.OpenApiCustomizer;

import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

import io.slotkeeper.problem.ProblemKind;

/**
 * The API's OpenAPI description, which {@code openapi.yaml} at the repository root must
 * match: bearer security, and on every operation the problem responses its kind of call
 * can answer.
 */
@Configuration(proxyBeanMethods = false)
class OpenApiConfiguration {

	private static final String PROBLEM = "Problem";

	@Bean
	OpenAPI slotKeeperOpenApi() {
		return new OpenAPI()
			.info(new Info().title("slot-keeper")
				.version("v1")
				.description("Keeps PostgreSQL logical replication slots healthy for CDC pipelines. Every /api call "
						+ "needs 'Authorization: Bearer <token>': a viewer token may GET, an operator token may also "
						+ "change. Errors are RFC 9457 problems (application/problem+json) with a stable type URI.")
				.license(new License().name("Apache-2.0")))
			.servers(List.of(new Server().url("/").description("this slot-keeper")))
			.components(new Components()
				.addSecuritySchemes("bearer",
						new SecurityScheme().type(SecurityScheme.Type.HTTP)
							.scheme("bearer")
							.description("A token whose SHA-256 is configured in slotkeeper.api.tokens"))
				.addSchemas(PROBLEM, problemSchema()))
			.addSecurityItem(new SecurityRequirement().addList("bearer"));
	}

	@Bean
	OpenApiCustomizer problemResponses() {
		return (openApi) -> openApi.getPaths().forEach((path, item) -> {
			boolean perTarget = path.contains("{target}");
			item.readOperationsMap().forEach((method, operation) -> {
				boolean change = method != PathItem.HttpMethod.GET;
				add(operation, "400", "Invalid input: nothing ran", ProblemKind.INVALID_REQUEST);
				add(operation, "401", "No token, or an unknown one", ProblemTypes.UNAUTHORIZED);
				if (change) {
					add(operation, "403", "The token may not change things, or the target's role lacks a privilege",
							ProblemTypes.FORBIDDEN);
				}
				if (perTarget) {
					add(operation, "404", "No such target (or slot)", ProblemKind.TARGET_NOT_FOUND);
					add(operation, "503", "The target is down or refuses connections", ProblemKind.TARGET_UNAVAILABLE);
					add(operation, "504", "The target did not answer in time", ProblemKind.TARGET_TIMEOUT);
				}
				if (change && path.endsWith("/heartbeat")) {
					add(operation, "409", "Heartbeats are disabled for this target", ProblemKind.HEARTBEAT_DISABLED);
				}
				if (change && path.contains("/slots")) {
					add(operation, "409", "Refused: the slot exists, is active, or is not invalidated",
							ProblemKind.SLOT_ACTIVE);
					add(operation, "422", "The server's version cannot do this", ProblemKind.NOT_SUPPORTED);
					add(operation, "502", "The target's server, or Kafka Connect, failed", ProblemKind.DATABASE_ERROR);
				}
				if (change && (path.endsWith("/slots/{slot}") || path.endsWith("/recreate"))) {
					add(operation, "412", "If-Match no longer matches: the slot changed since it was read",
							ProblemKind.SLOT_CHANGED);
				}
				add(operation, "500", "slot-keeper failed; its log has the cause", ProblemTypes.INTERNAL_ERROR);
			});
		});
	}

	private static void add(Operation operation, String status, String description, ProblemKind kind) {
		add(operation, status, description, ProblemTypes.of(kind).slug());
	}

	private static void add(Operation operation, String status, String description, String slug) {
		if (operation.getResponses().containsKey(status)) {
			return;
		}
		Map<String, Object> problem = new LinkedHashMap<>();
		problem.put("type", ProblemTypes.TYPE_PREFIX + slug);
		problem.put("title", description);
		problem.put("status", Integer.parseInt(status));
		problem.put("detail", "What happened this time, for the operator.");
		operation.getResponses()
			.addApiResponse(status,
					new ApiResponse().description(description)
						.content(new Content().addMediaType("application/problem+json",
								new MediaType().schema(new Schema<>().$ref("#/components/schemas/" + PROBLEM))
									.example(problem))));
	}

	private static Schema<?> problemSchema() {
		return new ObjectSchema()
			.description("RFC 9457 problem details; extra members such as target, slot, sqlState "
					+ "or activePid where they help")
			.addProperty("type", new StringSchema().example("urn:slotkeeper:problem:slot-active"))
			.addProperty("title", new StringSchema())
			.addProperty("status", new IntegerSchema())
			.addProperty("detail", new StringSchema())
			.addProperty("instance", new StringSchema())
			.addProperty("target", new StringSchema())
			.addProperty("slot", new StringSchema())
			.addProperty("sqlState", new StringSchema().example("55006"));
	}

}
