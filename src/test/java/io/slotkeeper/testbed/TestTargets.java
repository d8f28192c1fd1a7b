package io.slotkeeper.testbed;

import java.util.LinkedHashMap;
import java.util.Map;

import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.boot.context.properties.source.MapConfigurationPropertySource;
import org.springframework.boot.convert.ApplicationConversionService;

import io.slotkeeper.config.TargetProperties;

/**
 * Builds targets for tests from the same keys and defaults an operator's configuration uses.
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
		Map<String, String> properties = new LinkedHashMap<>();
		properties.put("t.name", name);
		properties.put("t.url", url);
		for (int i = 0; i < keyValues.length; i += 2) {
			properties.put("t." + keyValues[i], keyValues[i + 1]);
		}
		return new Binder(java.util.List.of(new MapConfigurationPropertySource(properties)), null,
				ApplicationConversionService.getSharedInstance())
			.bind("t", TargetProperties.class)
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
		String[] all = new String[keyValues.length + (server.password() != null ? 4 : 2)];
		all[0] = "username";
		all[1] = server.user();
		if (server.password() != null) {
			all[2] = "password";
			all[3] = server.password();
		}
		System.arraycopy(keyValues, 0, all, all.length - keyValues.length, keyValues.length);
		return target(name, server.jdbcUrl(database), all);
	}

}
