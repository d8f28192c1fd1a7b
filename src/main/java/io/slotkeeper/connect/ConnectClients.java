package io.slotkeeper.connect;

import java.net.http.HttpClient;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

import org.springframework.http.HttpHeaders;
import org.springframework.http.client.JdkClientHttpRequestFactory;
import org.springframework.web.client.RestClient;

import io.slotkeeper.config.ConnectorProperties;
import io.slotkeeper.config.Secret;

/**
 * One HTTP client per Kafka Connect cluster (address, credentials, timeout), not per
 * connector: each JDK client keeps a selector thread, so they are made once, and
 * discovered connectors that come and go add none.
 */
final class ConnectClients {

	private final RestClient.Builder builder;

	private final Map<Cluster, RestClient> clients = new ConcurrentHashMap<>();

	ConnectClients(RestClient.Builder builder) {
		this.builder = builder;
	}

	/**
	 * The client of a connector's cluster, made at its first call.
	 * @param connector the connector
	 * @return the client
	 */
	RestClient of(ConnectorProperties connector) {
		return this.clients.computeIfAbsent(Cluster.of(connector), (cluster) -> client(this.builder, cluster.url(),
				cluster.username(), cluster.password(), cluster.timeout()));
	}

	int size() {
		return this.clients.size();
	}

	private record Cluster(String url, String username, Secret password, Duration timeout) {

		static Cluster of(ConnectorProperties connector) {
			return new Cluster(connector.url(), connector.username(), connector.password(), connector.timeout());
		}

	}

	/**
	 * A client of one Kafka Connect cluster: JSON asked for, every call bounded by the
	 * timeout, basic auth when both user and password are given.
	 */
	static RestClient client(RestClient.Builder builder, String url, String username, Secret password,
			Duration timeout) {
		HttpClient http = HttpClient.newBuilder().connectTimeout(timeout).build();
		JdkClientHttpRequestFactory factory = new JdkClientHttpRequestFactory(http);
		factory.setReadTimeout(timeout);
		return builder.clone().baseUrl(url).requestFactory(factory).defaultHeaders((headers) -> {
			if (username != null && password != null) {
				headers.setBasicAuth(username, password.reveal());
			}
			headers.set(HttpHeaders.ACCEPT, "application/json");
		}).build();
	}

}
