package io.slotkeeper.testbed;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import org.yaml.snakeyaml.LoaderOptions;
import org.yaml.snakeyaml.Yaml;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * A real response compared with the schema {@code openapi.yaml} gives it: every member
 * the response has must be a property of its schema (following {@code $ref}, array items
 * and maps), so that two classes of one name collapsed into one schema, or a field the
 * contract lacks, are caught from what the API really answers.
 */
public final class OpenApiResponses {

	private static final JsonMapper JSON = JsonMapper.builder().build();

	private final Map<String, Object> contract;

	private OpenApiResponses(Map<String, Object> contract) {
		this.contract = contract;
	}

	/**
	 * The contract at the repository root.
	 * @return it
	 */
	public static OpenApiResponses contract() {
		try (InputStream in = Files.newInputStream(Path.of("openapi.yaml"))) {
			LoaderOptions options = new LoaderOptions();
			options.setCodePointLimit(10 * 1024 * 1024);
			return new OpenApiResponses(new Yaml(options).load(in));
		}
		catch (IOException ex) {
			throw new IllegalStateException("openapi.yaml cannot be read", ex);
		}
	}

	/**
	 * What of a 200 response of a GET is not in its schema.
	 * @param path the path as the contract names it, such as
	 * {@code /api/v1/targets/{target}/slots}
	 * @param body the real response's body
	 * @return each member that its schema lacks, as {@code $.connectors[0].source}; empty
	 * when it fits
	 */
	public List<String> outside(String path, String body) {
		Map<String, Object> operation = at(at(this.contract, "paths"), path);
		Map<String, Object> ok = at(at(at(operation, "get"), "responses"), "200");
		Map<String, Object> content = at(ok, "content");
		Map<String, Object> schema = at(at(content, content.keySet().iterator().next()), "schema");
		List<String> outside = new ArrayList<>();
		walk(JSON.readTree(body), schema, "$", outside);
		return outside;
	}

	private void walk(JsonNode value, Map<String, Object> schema, String where, List<String> outside) {
		Map<String, Object> resolved = resolve(schema);
		if (value.isArray()) {
			Map<String, Object> items = at(resolved, "items");
			for (int i = 0; i < value.size(); i++) {
				walk(value.get(i), items, where + "[" + i + "]", outside);
			}
			return;
		}
		if (!value.isObject()) {
			return;
		}
		Map<String, Object> properties = at(resolved, "properties");
		Object additional = resolved.get("additionalProperties");
		// A free-form object ({} or an object schema naming no properties) takes any
		// member.
		if (properties.isEmpty() && !(additional instanceof Map<?, ?> values && !values.isEmpty())) {
			return;
		}
		for (Map.Entry<String, JsonNode> member : value.properties()) {
			String here = where + "." + member.getKey();
			if (properties.containsKey(member.getKey())) {
				walk(member.getValue(), at(properties, member.getKey()), here, outside);
			}
			else if (additional instanceof Map<?, ?> values) {
				walk(member.getValue(), cast(values), here, outside);
			}
			else if (!Boolean.TRUE.equals(additional)) {
				outside.add(here + " (not in " + resolved.getOrDefault("title", schema.get("$ref")) + ")");
			}
		}
	}

	private Map<String, Object> resolve(Map<String, Object> schema) {
		Object ref = schema.get("$ref");
		if (ref == null) {
			return schema;
		}
		String name = ref.toString().substring("#/components/schemas/".length());
		return resolve(at(at(at(this.contract, "components"), "schemas"), name));
	}

	private static Map<String, Object> at(Map<String, Object> map, String key) {
		Object value = map.get(key);
		return (value instanceof Map<?, ?> nested) ? cast(nested) : Map.of();
	}

	@SuppressWarnings("unchecked")
	private static Map<String, Object> cast(Map<?, ?> map) {
		return (Map<String, Object>) map;
	}

}
