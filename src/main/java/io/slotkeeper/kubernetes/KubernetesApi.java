package io.slotkeeper.kubernetes;

import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.security.cert.Certificate;
import java.security.cert.CertificateFactory;
import java.time.Duration;

import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManagerFactory;

/**
 * The Kubernetes API server as the pod's service account reaches it: one HTTP client
 * (trusting the cluster's CA when the server is HTTPS and the CA file exists; HTTP/1.1 on
 * plain HTTP, a local proxy or a test), and requests that carry the service-account
 * token, read from its file at every request since projected tokens rotate. No request or
 * failure ever shows the token.
 */
public final class KubernetesApi {

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
