package io.slotkeeper.testbed;

import java.util.LinkedHashMap;
import java.util.Map;

import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.boot.context.properties.source.MapConfigurationPropertySource;
import org.springframework.boot.convert.ApplicationConversionService;

import io.slotkeeper.config.TargetProperties;
import io.slotkeeper.fleet.Fleet;
import io.slotkeeper.sessions.Node;
import io.slotkeeper.sessions.NodeConnector;

/**
 * Builds targets for tests from the same keys and defaults an operator's configuration
 * uses.
 */
public final class TestTargets {

	private TestTargets() {
	}

	/**
	 * A target, bound like {@code slotkeeper.targets[n]}.
	 * @param name the target's name
	 * @param url its URL
	 * @param keyValues further keys relative to the target and their values, for example
	 * {@code "heartbeat.interval", "200ms"}
	 * @return the target
	 */
	public static TargetProperties target(String name, String url, String... keyValues) {
		String[] all = new String[keyValues.length + 4];
		all[0] = "name";
		all[1] = name;
		all[2] = "url";
		all[3] = url;
		System.arraycopy(keyValues, 0, all, 4, keyValues.length);
		return bind(TargetProperties.class, all);
	}

	/**
	 * Any configuration record, bound from keys relative to it with the defaults an
	 * operator's configuration gets.
	 * @param <T> the record's type
	 * @param type the record's type
	 * @param keyValues keys and their values, alternating, for example
	 * {@code "url", "http://connect:8083"}
	 * @return the bound record
	 */
	public static <T> T bind(Class<T> type, String... keyValues) {
		Map<String, String> properties = new LinkedHashMap<>();
		for (int i = 0; i < keyValues.length; i += 2) {
			properties.put("t." + keyValues[i], keyValues[i + 1]);
		}
		return new Binder(java.util.List.of(new MapConfigurationPropertySource(properties)), null,
				ApplicationConversionService.getSharedInstance())
			.bind("t", type)
			.get();
	}

	/**
	 * A target on a test server, logged in as its superuser.
	 * @param name the target's name
	 * @param server the server
	 * @param database the database
	 * @param keyValues further keys relative to the target and their values
	 * @return the target
	 */
	public static TargetProperties target(String name, PostgresServer server, String database, String... keyValues) {
		return asSuperuser(name, server, server.jdbcUrl(database), keyValues);
	}

	/**
	 * A target on a test server reached through another port, such as a
	 * {@link TcpProxy}'s, as its superuser.
	 * @param name the target's name
	 * @param server the server
	 * @param port the port to connect to on loopback
	 * @param database the database
	 * @param keyValues further keys relative to the target and their values
	 * @return the target
	 */
	public static TargetProperties targetVia(String name, PostgresServer server, int port, String database,
			String... keyValues) {
		return asSuperuser(name, server, "jdbc:postgresql://127.0.0.1:" + port + "/" + database, keyValues);
	}

	private static TargetProperties asSuperuser(String name, PostgresServer server, String url, String... keyValues) {
		String[] all = new String[keyValues.length + (server.password() != null ? 4 : 2)];
		all[0] = "username";
		all[1] = server.user();
		if (server.password() != null) {
			all[2] = "password";
			all[3] = server.password();
		}
		System.arraycopy(keyValues, 0, all, all.length - keyValues.length, keyValues.length);
		return target(name, url, all);
	}

	/**
	 * A fleet of targets as the application builds it; the caller closes it.
	 * @param targets the targets
	 * @return the fleet
	 */
	public static Fleet fleet(TargetProperties... targets) {
		return new Fleet(java.util.List.of(targets), java.util.List.of(),
				new NodeConnector(java.time.Clock.systemUTC()), io.slotkeeper.fleet.Instance.random(),
				java.time.Clock.systemUTC());
	}

	/**
	 * The primary node of a target, for tests that open sessions themselves; its pool is
	 * never used.
	 * @param target the target
	 * @return the primary
	 */
	public static Node primary(TargetProperties target) {
		return fleet(target).get(target.name()).primary();
	}

}
