package io.slotkeeper.kubernetes;

import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.security.cert.Certificate;
import java.security.cert.CertificateFactory;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;

import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManagerFactory;

import tools.jackson.core.JacksonException;
import tools.jackson.databind.json.JsonMapper;

import io.slotkeeper.support.FirstLines;

/**
 * The Kubernetes API server as the pod's service account reaches it: one HTTP client
 * (trusting the cluster's CA when the server is HTTPS and the CA file exists; HTTP/1.1 on
 * plain HTTP, a local proxy or a test), and requests that carry the service-account
 * token, read from its file at every request since projected tokens rotate. No request or
 * failure ever shows the token.
 */
public final class KubernetesApi {

	private static final JsonMapper JSON = JsonMapper.builder().build();

	private final URI apiServer;

	private final Path tokenFile;

	private final Duration timeout;

	private final HttpClient client;

	/**
	 * Creates the client.
	 * @param apiServer the API server, in a pod {@code https://kubernetes.default.svc}
	 * @param tokenFile the pod's service-account token
	 * @param caFile the CA that signs the API server's certificate
	 * @param timeout how long connecting and one request may take
	 */
	public KubernetesApi(URI apiServer, Path tokenFile, Path caFile, Duration timeout) {
		this.apiServer = apiServer;
		this.tokenFile = tokenFile;
		this.timeout = timeout;
		HttpClient.Builder builder = HttpClient.newBuilder().connectTimeout(timeout);
		if ("https".equals(apiServer.getScheme())) {
			if (Files.isReadable(caFile)) {
				builder.sslContext(trusting(caFile));
			}
		}
		else {
			// Plain HTTP (a local proxy, tests): no h2c upgrade dance on every new
			// connection.
			builder.version(HttpClient.Version.HTTP_1_1);
		}
		this.client = builder.build();
	}

	/**
	 * The HTTP client, shared by every request to this API server.
	 * @return the client
	 */
	public HttpClient client() {
		return this.client;
	}

	/**
	 * The API server's address.
	 * @return the URI
	 */
	public URI apiServer() {
		return this.apiServer;
	}

	/**
	 * A request to a path of the API server with the service-account token, JSON
	 * accepted, bounded by the timeout.
	 * @param path the path, such as
	 * {@code /apis/kafka.strimzi.io/v1/namespaces/cdc/kafkaconnectors/orders}
	 * @return the request's builder, its method and body still to set
	 * @throws TokenUnreadable when the token file cannot be read
	 */
	public HttpRequest.Builder request(String path) {
		return HttpRequest.newBuilder(this.apiServer.resolve(path))
			.timeout(this.timeout)
			.header("Authorization", "Bearer " + serviceAccountToken())
			.header("Accept", "application/json");
	}

	/**
	 * Sends a request with a JSON body, or none, and reads the JSON object answered;
	 * never throws for what the API server or the network did: the answer says it.
	 * @param method the HTTP method
	 * @param path the path, as for {@link #request(String)}
	 * @param contentType the body's type, such as {@code application/merge-patch+json}
	 * @param body the body, written as JSON; {@code null} for none
	 * @return the answer
	 */
	public Answer exchange(String method, String path, String contentType, Object body) {
		try {
			HttpRequest.Builder request = request(path);
			if (body != null) {
				request.header("Content-Type", contentType);
			}
			request.method(method, (body != null) ? HttpRequest.BodyPublishers.ofByteArray(JSON.writeValueAsBytes(body))
					: HttpRequest.BodyPublishers.noBody());
			HttpResponse<String> response = this.client.send(request.build(), HttpResponse.BodyHandlers.ofString());
			int status = response.statusCode();
			Map<String, Object> object = object(response.body());
			if (status / 100 == 2) {
				return new Answer(status, object, null, false);
			}
			String message = String.valueOf(object.getOrDefault("message", FirstLines.of(response.body())));
			// A server error or throttling says nothing of the request, only that the API
			// server cannot serve it now: a caller waits for it as for one that did not
			// answer, rather than taking it for a refusal.
			return new Answer(status, object,
					"the Kubernetes API answered " + status + " to " + method + " " + path + ": " + message,
					status >= 500 || status == 429);
		}
		catch (TokenUnreadable ex) {
			return new Answer(null, Map.of(), ex.getMessage(), false);
		}
		catch (HttpTimeoutException ex) {
			return new Answer(null, Map.of(), "the Kubernetes API did not answer " + method + " " + path + " in time",
					true);
		}
		catch (IOException ex) {
			return new Answer(null, Map.of(), "the Kubernetes API could not be reached at " + this.apiServer + " ("
					+ ex.getClass().getSimpleName() + ")", true);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			return new Answer(null, Map.of(), "interrupted while calling the Kubernetes API", true);
		}
	}

	@SuppressWarnings("unchecked")
	private static Map<String, Object> object(String body) {
		try {
			Object parsed = (body == null || body.isBlank()) ? null : JSON.readValue(body, Object.class);
			return (parsed instanceof Map<?, ?> map) ? new LinkedHashMap<>((Map<String, Object>) map) : Map.of();
		}
		catch (JacksonException ex) {
			return Map.of();
		}
	}

	/**
	 * What the Kubernetes API answered.
	 *
	 * @param status the HTTP status, {@code null} when it was not reached
	 * @param object the JSON object answered, empty when none
	 * @param error what went wrong, {@code null} on a 2xx
	 * @param unreachable whether the API server could not be reached, did not answer in
	 * time, or answered that it cannot serve the request now (5xx, 429)
	 */
	public record Answer(Integer status, Map<String, Object> object, String error, boolean unreachable) {

		/**
		 * Whether it was a 2xx.
		 * @return whether it succeeded
		 */
		public boolean ok() {
			return this.error == null;
		}

	}

	private String serviceAccountToken() {
		try {
			return Files.readString(this.tokenFile).trim();
		}
		catch (IOException ex) {
			throw new TokenUnreadable("slot-keeper's service-account token cannot be read from " + this.tokenFile
					+ " (automountServiceAccountToken off?)");
		}
	}

	private static SSLContext trusting(Path caFile) {
		try (InputStream pem = Files.newInputStream(caFile)) {
			KeyStore store = KeyStore.getInstance(KeyStore.getDefaultType());
			store.load(null, null);
			int i = 0;
			for (Certificate certificate : CertificateFactory.getInstance("X.509").generateCertificates(pem)) {
				store.setCertificateEntry("ca-" + i++, certificate);
			}
			TrustManagerFactory trust = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
			trust.init(store);
			SSLContext context = SSLContext.getInstance("TLS");
			context.init(null, trust.getTrustManagers(), null);
			return context;
		}
		catch (IOException | GeneralSecurityException ex) {
			throw new IllegalStateException("the Kubernetes CA in " + caFile + " cannot be loaded: " + ex.getMessage(),
					ex);
		}
	}

	/**
	 * The service-account token file cannot be read: the message says which file and why
	 * it may be missing.
	 */
	public static final class TokenUnreadable extends RuntimeException {

		private static final long serialVersionUID = 1L;

		TokenUnreadable(String message) {
			super(message);
		}

	}

}
