package io.slotkeeper.config;

import java.net.URLDecoder;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * What a PgJDBC URL names: the URL of one database of a configured server (the server's
 * URL with the database's name in place of the one it names, every host and parameter
 * kept), its hosts and its database.
 */
public final class ServerUrls {

	private static final Pattern URL = Pattern.compile("^(jdbc:postgresql://[^/?]+)(/[^?]*)?(\\?.*)?$");

	private static final int DEFAULT_PORT = 5432;

	private ServerUrls() {
	}

	/**
	 * The URL of a database.
	 * @param serverUrl the server's URL,
	 * {@code jdbc:postgresql://host[:port][,host[:port]...][/database][?params]}
	 * @param database the database's name, any characters (encoded as PgJDBC decodes
	 * them)
	 * @return the database's URL
	 * @throws IllegalArgumentException when the URL names no host
	 */
	public static String forDatabase(String serverUrl, String database) {
		Matcher matcher = URL.matcher(serverUrl);
		if (!matcher.matches()) {
			throw new IllegalArgumentException("Not a PgJDBC URL naming a host: jdbc:postgresql://host...");
		}
		String parameters = (matcher.group(3) != null) ? matcher.group(3) : "";
		return matcher.group(1) + "/" + URLEncoder.encode(database, StandardCharsets.UTF_8).replace("+", "%20")
				+ parameters;
	}

	/**
	 * The hosts and ports a PgJDBC URL names, in lower case, each with its port (5432
	 * when unset).
	 * @param url the URL
	 * @return {@code host:port} each; empty when the URL names no host
	 */
	public static List<String> endpoints(String url) {
		Matcher matcher = URL.matcher(url);
		if (!matcher.matches()) {
			return List.of();
		}
		return Arrays.stream(matcher.group(1).substring("jdbc:postgresql://".length()).split(","))
			.map(ServerUrls::endpoint)
			.toList();
	}

	/**
	 * A host as {@code host:port}, in lower case, with 5432 when it names no port.
	 * @param hostAndPort {@code host}, {@code host:port}, {@code [v6]} or
	 * {@code [v6]:port}
	 * @return the endpoint
	 */
	public static String endpoint(String hostAndPort) {
		String lower = hostAndPort.strip().toLowerCase(Locale.ROOT);
		int bracket = lower.lastIndexOf(']');
		int colon = lower.lastIndexOf(':');
		return (colon > bracket && (bracket >= 0 || lower.indexOf(':') == colon)) ? lower : lower + ":" + DEFAULT_PORT;
	}

	/**
	 * The database a PgJDBC URL names, decoded.
	 * @param url the URL
	 * @return the database's name; empty when it names none (PgJDBC then takes the user's
	 * name)
	 */
	public static Optional<String> database(String url) {
		Matcher matcher = URL.matcher(url);
		if (!matcher.matches() || matcher.group(2) == null || matcher.group(2).length() < 2) {
			return Optional.empty();
		}
		return Optional.of(URLDecoder.decode(matcher.group(2).substring(1), StandardCharsets.UTF_8));
	}

}
