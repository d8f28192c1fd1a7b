package io.slotkeeper.testbed;

import java.util.HashMap;
import java.util.List;
import java.util.Map;

import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.core.env.StandardEnvironment;
import org.springframework.core.env.SystemEnvironmentPropertySource;

import io.slotkeeper.SlotKeeperApplication;
import io.slotkeeper.audit.AuditJournal;
import io.slotkeeper.sessions.Lsn;

/**
 * The application started as an operator would, through environment variables, on one
 * database of a real server with a slot {@code cdc} that is recreated when lost and
 * re-snapshotted through the signal table {@code public.debezium_signal}; and what the
 * tests of its recreates read back.
 *
 * @param server the server
 * @param database the database
 */
public record SignalledTarget(PostgresServer server, String database) {

	/**
	 * Starts the application on the database.
	 * @param target the target's name
	 * @param slotSettings more settings of the slot, by the variable's name after
	 * {@code SLOTKEEPER_TARGETS_0_SLOTS_0_}
	 * @return the running application
	 */
	public ConfigurableApplicationContext start(String target, Map<String, String> slotSettings) {
		return start(target, slotSettings, Map.of());
	}

	/**
	 * Starts the application on the database, with more of its settings.
	 * @param target the target's name
	 * @param slotSettings more settings of the slot, by the variable's name after
	 * {@code SLOTKEEPER_TARGETS_0_SLOTS_0_}
	 * @param more more environment variables, by their whole name
	 * @return the running application
	 */
	public ConfigurableApplicationContext start(String target, Map<String, String> slotSettings,
			Map<String, String> more) {
		Map<String, Object> variables = new HashMap<>(Map.of("SLOTKEEPER_TARGETS_0_NAME", target,
				"SLOTKEEPER_TARGETS_0_URL", this.server.jdbcUrl(this.database), "SLOTKEEPER_TARGETS_0_USERNAME",
				this.server.user(), "SLOTKEEPER_TARGETS_0_HEARTBEAT_INTERVAL", "200ms",
				"SLOTKEEPER_TARGETS_0_SLOTS_POLL_INTERVAL", "200ms", "SLOTKEEPER_TARGETS_0_SLOTS_0_NAME", "cdc",
				"SLOTKEEPER_TARGETS_0_SLOTS_0_ON_LOST", "recreate", "SLOTKEEPER_TARGETS_0_SLOTS_0_RESNAPSHOT_MODE",
				"debezium-signal", "SLOTKEEPER_TARGETS_0_SLOTS_0_RESNAPSHOT_SIGNAL_TABLE", "public.debezium_signal"));
		slotSettings.forEach((name, value) -> variables.put("SLOTKEEPER_TARGETS_0_SLOTS_0_" + name, value));
		variables.putAll(more);
		if (this.server.password() != null) {
			variables.put("SLOTKEEPER_TARGETS_0_PASSWORD", this.server.password());
		}
		return new SpringApplicationBuilder(SlotKeeperApplication.class)
			.initializers((context) -> context.getEnvironment()
				.getPropertySources()
				.addFirst(new SystemEnvironmentPropertySource(
						"test-" + StandardEnvironment.SYSTEM_ENVIRONMENT_PROPERTY_SOURCE_NAME, variables)))
			.run("--server.port=0");
	}

	public static List<String> entries(AuditJournal audit, String action) {
		return audit.entries().stream().filter((entry) -> action.equals(entry.action())).map(Object::toString).toList();
	}

	/**
	 * The position a query answers, {@code -1} when it answers none.
	 */
	public long lsn(String sql) {
		String lsn = this.server.queryForString(this.database, sql);
		return (lsn != null) ? Lsn.parse(lsn) : -1;
	}

	public int version() {
		return Integer.parseInt(this.server.queryForString(this.database, "SHOW server_version_num"));
	}

}
