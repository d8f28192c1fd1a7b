package io.slotkeeper.testbed;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;

import tools.jackson.databind.json.JsonMapper;

import static io.slotkeeper.testbed.StrimziResources.asMap;

/**
 * A client of the Kubernetes API stand-in under one service account, as the operator
 * emulation and a user's {@code kubectl} reach it: get, merge-patch, and a ConfigMap
 * created or patched. An answer other than 2xx (404 on a get aside) or no answer within
 * 10 s is an {@link IOException}.
 */
final class KubernetesClient {

	private static final JsonMapper JSON = JsonMapper.builder().build();

	private final String url;

	private final String token;

	private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();

	KubernetesClient(String url, String token) {
		this.url = url;
		this.token = token;
	}

	/**
	 * A resource or a list.
	 * @param path its path
	 * @return it, {@code null} when there is none (404)
	 * @throws IOException when the API fails or does not answer
	 */
	Map<String, Object> get(String path) throws IOException {
		HttpResponse<String> answer = send("GET", path, null, null);
		if (answer.statusCode() == 404) {
			return null;
		}
		return asMap(JSON.readValue(answer.body(), Map.class));
	}

	/**
	 * A JSON merge patch (RFC 7386).
	 * @param path the resource's path
	 * @param patch the patch
	 * @throws IOException when the API refuses, fails or does not answer
	 */
	void patch(String path, Map<String, Object> patch) throws IOException {
		send("PATCH", path, "application/merge-patch+json", patch);
	}

	/**
	 * A ConfigMap's data, the map created when there is none.
	 * @param namespace its namespace
	 * @param name its name
	 * @param data its data
	 * @throws IOException when the API refuses, fails or does not answer
	 */
	void putConfigMap(String namespace, String name, Map<String, Object> data) throws IOException {
		String maps = "/api/v1/namespaces/" + namespace + "/configmaps";
		Map<String, Object> map = new LinkedHashMap<>(Map.of("apiVersion", "v1", "kind", "ConfigMap", "metadata",
				Map.of("name", name, "namespace", namespace), "data", data));
		HttpResponse<String> created = send("POST", maps, "application/json", map, 409);
		if (created.statusCode() == 409) {
			patch(maps + "/" + name, Map.of("data", data));
		}
	}

	private HttpResponse<String> send(String method, String path, String type, Object body, int... alsoFine)
			throws IOException {
		HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(this.url + path))
			.header("Authorization", "Bearer " + this.token)
			.timeout(Duration.ofSeconds(10))
			.method(method, (body != null) ? HttpRequest.BodyPublishers.ofString(JSON.writeValueAsString(body))
					: HttpRequest.BodyPublishers.noBody());
		if (type != null) {
			request.header("Content-Type", type);
		}
		try {
			HttpResponse<String> answer = this.http.send(request.build(), HttpResponse.BodyHandlers.ofString());
			int status = answer.statusCode();
			boolean fine = status / 100 == 2 || (method.equals("GET") && status == 404)
					|| java.util.Arrays.stream(alsoFine).anyMatch((each) -> each == status);
			if (!fine) {
				throw new IOException(method + " " + path + " answered " + status + ": " + answer.body());
			}
			return answer;
		}
		catch (HttpTimeoutException ex) {
			throw new IOException(method + " " + path + " had no answer within 10 s", ex);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			throw new IOException(ex);
		}
	}

}
