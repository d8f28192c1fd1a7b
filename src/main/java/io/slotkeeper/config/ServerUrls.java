package io.slotkeeper.config;

import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The URL of one database of a configured server: the server's PgJDBC URL with the database's name in place of the
 * one it names, every host and parameter kept.
 */
public final class ServerUrls {

	private static final Pattern URL = Pattern.compile("^(jdbc:postgresql://[^/?]+)(/[^?]*)?(\\?.*)?$");

	private ServerUrls() {
	}

	/**
	 * The URL of a database.
	 * @param serverUrl the server's URL, {@code jdbc:postgresql://host[:port][,host[:port]...][/database][?params]}
	 * @param database the database's name, any characters (encoded as PgJDBC decodes them)
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

}
