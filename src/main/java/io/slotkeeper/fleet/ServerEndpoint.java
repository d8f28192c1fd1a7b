package io.slotkeeper.fleet;

import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.TreeMap;

import org.postgresql.Driver;
import org.postgresql.PGProperty;

import io.slotkeeper.config.ConnectionProperties;
import io.slotkeeper.config.Secret;
import io.slotkeeper.config.TargetProperties;

/**
 * Where a configured target's URL leads apart from its database, and as whom: targets
 * with one endpoint are on one server and see the same of it, so they can share one
 * reading of its slots ({@link SharedReading}).
 *
 * @param address what the URL says besides the database: hosts, ports and parameters
 * @param username the role
 * @param password its password
 * @param connection the connection settings
 */
record ServerEndpoint(Map<String, String> address, String username, Secret password, ConnectionProperties connection) {

	/**
	 * The endpoint and database of a configured target.
	 *
	 * @param endpoint the endpoint
	 * @param database the database the URL names
	 */
	record Located(ServerEndpoint endpoint, String database) {
	}

	/**
	 * Where a target's URL leads.
	 * @param target the target's configuration
	 * @return the endpoint and database; empty when the URL names no database (the server
	 * would pick the role's name) or PgJDBC cannot read it
	 */
	static Optional<Located> of(TargetProperties target) {
		Properties parsed = Driver.parseURL(target.url(), null);
		if (parsed == null) {
			return Optional.empty();
		}
		String database = PGProperty.PG_DBNAME.getOrDefault(parsed);
		if (database == null || database.isEmpty()) {
			return Optional.empty();
		}
		Map<String, String> address = new TreeMap<>();
		parsed.stringPropertyNames().forEach((name) -> address.put(name, parsed.getProperty(name)));
		address.remove(PGProperty.PG_DBNAME.getName());
		return Optional.of(new Located(
				new ServerEndpoint(Map.copyOf(address), target.username(), target.password(), target.connection()),
				database));
	}

	// The URL's parameters may hold a password: an endpoint is a key, never a message.
	@Override
	public String toString() {
		return "ServerEndpoint";
	}

}
