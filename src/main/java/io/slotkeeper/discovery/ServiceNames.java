package io.slotkeeper.discovery;

import java.net.URI;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Host names as Kubernetes resolves them: a short name ({@code postgres}) is a Service of
 * the namespace it is resolved in, so it is qualified with that namespace before two
 * names are compared, and the longer forms of a Service name ({@code postgres.team-a},
 * {@code postgres.team-a.svc}, {@code postgres.team-a.svc.cluster.local}) are one name.
 * An address, {@code localhost} or any other name is kept as it is.
 */
final class ServiceNames {

	private static final Pattern SERVICE = Pattern.compile("^([a-z0-9-]+)\\.([a-z0-9-]+)(\\.svc(\\..+)?)?$");

	private static final Pattern ADDRESS = Pattern.compile("^(\\[.*]|[0-9.]+)$");

	private ServiceNames() {
	}

	/**
	 * An endpoint with its host as {@code service.namespace} where it names a Service.
	 * @param endpoint {@code host:port}, in lower case
	 * @param namespace the namespace a short name is resolved in, {@code null} when
	 * unknown (a short name is then kept short, and matches only a short name)
	 * @return the endpoint to compare
	 */
	static String qualified(String endpoint, String namespace) {
		int colon = endpoint.lastIndexOf(':');
		String host = endpoint.substring(0, colon);
		String port = endpoint.substring(colon);
		if (ADDRESS.matcher(host).matches() || "localhost".equals(host)) {
			return endpoint;
		}
		if (!host.contains(".")) {
			return (namespace != null) ? host + "." + namespace + port : endpoint;
		}
		Matcher service = SERVICE.matcher(host);
		return service.matches() ? service.group(1) + "." + service.group(2) + port : endpoint;
	}

	/**
	 * The namespace a URL's host is a Service of: the one it names, or, for a short name,
	 * the namespace it is resolved in.
	 * @param url an {@code http(s)://} URL, such as a Kafka Connect worker's
	 * @param own the namespace a short name is resolved in, {@code null} when unknown
	 * @return the namespace, {@code null} when the host is an address or an outside name
	 */
	static String namespaceOf(String url, String own) {
		String host;
		try {
			host = URI.create(url).getHost();
		}
		catch (IllegalArgumentException ex) {
			return null;
		}
		if (host == null || ADDRESS.matcher(host).matches()) {
			return null;
		}
		host = host.toLowerCase(Locale.ROOT);
		if (!host.contains(".")) {
			return own;
		}
		Matcher service = SERVICE.matcher(host);
		return service.matches() ? service.group(2) : null;
	}

}
