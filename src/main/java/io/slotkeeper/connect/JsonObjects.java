package io.slotkeeper.connect;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The one way this package walks JSON read as plain maps (Kafka Connect's answers,
 * Kubernetes resources): anything that is not an object reads as an empty one, so that a
 * missing or odd field never throws.
 */
public final class JsonObjects {

	private JsonObjects() {
	}

	/**
	 * A JSON value as an object.
	 * @param json the value
	 * @return a copy of it when it is an object, else an empty one
	 */
	@SuppressWarnings("unchecked")
	public static Map<String, Object> asMap(Object json) {
		return (json instanceof Map<?, ?> map) ? new LinkedHashMap<>((Map<String, Object>) map) : Map.of();
	}

	/**
	 * The object at a path of keys.
	 * @param object where to start
	 * @param path the keys
	 * @return the object there, empty where the path leads nowhere
	 */
	static Map<String, Object> at(Map<String, Object> object, String... path) {
		Map<String, Object> current = object;
		for (String key : path) {
			current = asMap(current.get(key));
		}
		return current;
	}

}
