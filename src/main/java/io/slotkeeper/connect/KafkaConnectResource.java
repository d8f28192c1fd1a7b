package io.slotkeeper.connect;

import java.util.Map;

/**
 * The one field of a Strimzi {@code KafkaConnect} that slot-keeper reads: where its REST
 * API answers, to read a connector's state from its worker.
 *
 * @param url {@code status.url}, {@code null} when the operator has not set it yet
 */
record KafkaConnectResource(String url) {

	/**
	 * Reads the field from a resource as the API answered it.
	 * @param object the resource's JSON object
	 * @return its fields
	 */
	static KafkaConnectResource of(Map<String, Object> object) {
		Object url = JsonObjects.at(object, "status").get("url");
		return new KafkaConnectResource((url != null) ? url.toString() : null);
	}

}
