package io.slotkeeper.connect;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The fields of a Strimzi {@code KafkaConnect} that slot-keeper reads: where its REST API
 * answers, to read a connector's state from its worker, and the artifacts its image is
 * built with, to tell whether slot-keeper's Debezium extension is among them.
 *
 * @param url {@code status.url}, {@code null} when the operator has not set it yet
 * @param built whether it has {@code spec.build} (else its image is the user's own)
 * @param artifacts the URLs of {@code spec.build.plugins[].artifacts[]}
 */
record KafkaConnectResource(String url, boolean built, List<String> artifacts) {

	/**
	 * Reads the field from a resource as the API answered it.
	 * @param object the resource's JSON object
	 * @return its fields
	 */
	static KafkaConnectResource of(Map<String, Object> object) {
		Object url = JsonObjects.at(object, "status").get("url");
		Map<String, Object> build = JsonObjects.at(object, "spec", "build");
		List<String> artifacts = new ArrayList<>();
		for (Object plugin : list(build.get("plugins"))) {
			for (Object artifact : list(JsonObjects.asMap(plugin).get("artifacts"))) {
				Object artifactUrl = JsonObjects.asMap(artifact).get("url");
				if (artifactUrl != null) {
					artifacts.add(artifactUrl.toString());
				}
			}
		}
		return new KafkaConnectResource((url != null) ? url.toString() : null, !build.isEmpty(), artifacts);
	}

	private static List<?> list(Object json) {
		return (json instanceof List<?> list) ? list : List.of();
	}

}
