package io.slotkeeper.config;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

import jakarta.validation.Valid;
import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.NotBlank;
import jakarta.validation.constraints.NotEmpty;
import jakarta.validation.constraints.NotNull;
import jakarta.validation.constraints.Pattern;
import jakarta.validation.constraints.Size;
import org.hibernate.validator.constraints.time.DurationMax;
import org.hibernate.validator.constraints.time.DurationMin;

import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * One PostgreSQL server configured once: slot-keeper finds the databases that hold
 * logical slots, makes each a target named {@code <server>-<database>} with the defaults
 * given here, and retires it when its last logical slot has been gone for
 * {@code retire-after}. {@code pg_replication_slots} is read once per poll for the whole
 * server.
 *
 * @param name short name of the server, the first part of its databases' target names:
 * lower-case letters, digits and dashes, at most 63 characters, starting and ending with
 * a letter or digit
 * @param url PgJDBC URL slot-keeper connects to first to read the server's slots, for
 * example {@code jdbc:postgresql://rbac-db:5432/postgres?sslmode=verify-full}; each
 * database's target uses the same URL with the database's name in place of this one's; it
 * must name a host and carry no password
 * @param username role slot-keeper logs in as, in every database of the server
 * @param password password of that role, usually from an environment variable or a
 * mounted secret; never logged or shown
 * @param connection timeouts of every session slot-keeper opens to the server
 * @param databases {@code auto} for every database that holds a logical slot, or the
 * databases' names (each kept whether it holds a slot or not)
 * @param exclude databases never made targets, even when they hold logical slots
 * @param heartbeat heartbeat settings of every database's target, unless an override says
 * otherwise
 * @param slotsPollInterval how often the server's slots are read (once for all its
 * databases) and new databases found
 * @param lossWarning the slots health warns when a slot is estimated to be lost sooner
 * than this (at most 365 days)
 * @param retireAfter how long a discovered database must have held no logical slot before
 * its target is retired (its heartbeat stops and its session closes)
 * @param overrides settings of single databases by name, over the server's defaults
 * @param maxSessions most sessions slot-keeper keeps open to the server at once: one
 * heartbeat session per database that is a target plus the server's own polling session;
 * databases past it are not made targets, and the {@code servers} health says which.
 * Unset: a tenth of the connections the server gives non-superusers
 * ({@code max_connections - superuser_reserved_connections}), at least 2
 * @param aliases other names of the server ({@code host} or {@code host:port}, such as a
 * Service's DNS name) by which discovered connectors' {@code database.hostname} may name
 * it, beside the hosts its URL names; without a port, on the ports its URL names
 * @param replicas read replicas (streaming standbys) of the server: every database's
 * target gets each, its URL with the database's name in place of the one it names (it
 * must name a host), and the server's username and password when it sets none; their
 * slots are listed with {@code ?node=<name>} and the failover readiness of each logical
 * slot is judged against them
 */
@Consistent
public record ServerProperties(
		@NotBlank @Pattern(regexp = TargetProperties.NAME_PATTERN,
				message = "must be lower-case letters, digits and"
						+ " dashes, 1 to 63 characters, starting and ending with a letter or digit") String name,
		@NotBlank @Pattern(regexp = "^jdbc:postgresql://[^/?]+.*",
				message = "must be a PgJDBC URL naming a host, starting with jdbc:postgresql://") String url,
		String username, Secret password, @NotNull @Valid @DefaultValue ConnectionProperties connection,
		@NotEmpty @DefaultValue(AUTO) List<@NotBlank @Size(max = 63) String> databases,
		@NotNull @DefaultValue List<@NotBlank @Size(max = 63) String> exclude,
		@NotNull @Valid @DefaultValue HeartbeatProperties heartbeat,
		@NotNull @DurationMin(millis = 1) @DurationMax(hours = 1) @DefaultValue("30s") Duration slotsPollInterval,
		@NotNull @DurationMin(millis = 1) @DurationMax(days = 365) @DefaultValue("1h") Duration lossWarning,
		@NotNull @DurationMin(millis = 0) @DurationMax(days = 7) @DefaultValue("5m") Duration retireAfter,
		@NotNull @DefaultValue List<@Valid DatabaseOverrideProperties> overrides, @Min(2) Integer maxSessions,
		@NotNull @DefaultValue List<@NotNull @Pattern(regexp = ALIAS,
				message = "must be a host name or address," + " optionally with :port") String> aliases,
		@NotNull @DefaultValue List<@Valid ReplicaProperties> replicas) implements CrossFieldChecked {

	/**
	 * A host, optionally with a port: how a connector's {@code database.hostname} and
	 * {@code database.port} may name the server.
	 */
	public static final String ALIAS = "^(\\[[0-9A-Fa-f:.]+\\]|[A-Za-z0-9._-]{1,253})(:[0-9]{1,5})?$";

	/**
	 * The value of {@code databases} that means every database holding a logical slot.
	 */
	public static final String AUTO = "auto";

	/**
	 * Whether the databases are found from the server's slots rather than listed.
	 * @return {@code true} for {@code databases: auto}
	 */
	public boolean discovers() {
		return this.databases.size() == 1 && AUTO.equals(this.databases.get(0));
	}

	/**
	 * The override of one database, if any.
	 * @param database the database's name
	 * @return the override
	 */
	public Optional<DatabaseOverrideProperties> override(String database) {
		return this.overrides.stream().filter((override) -> override.name().equals(database)).findFirst();
	}

	/**
	 * The target of one of the server's databases: the server's settings, the database's
	 * override over them.
	 * @param targetName the target's name
	 * @param database the database's name
	 * @return the target's configuration
	 */
	public TargetProperties target(String targetName, String database) {
		Optional<DatabaseOverrideProperties> override = override(database);
		return new TargetProperties(targetName, ServerUrls.forDatabase(this.url, database), this.username,
				this.password, this.connection,
				override.map(DatabaseOverrideProperties::heartbeat).orElse(this.heartbeat), this.slotsPollInterval,
				override.map(DatabaseOverrideProperties::slots).orElse(List.of()),
				override.map(DatabaseOverrideProperties::lossWarning).orElse(this.lossWarning),
				this.replicas.stream()
					.map((replica) -> new ReplicaProperties(replica.name(),
							ServerUrls.forDatabase(replica.url(), database),
							(replica.username() != null) ? replica.username() : this.username,
							(replica.password() != null) ? replica.password() : this.password))
					.toList());
	}

	@Override
	public List<Violation> violations() {
		List<Violation> violations = new ArrayList<>(CrossFieldChecked.duplicateNames("overrides", this.overrides,
				DatabaseOverrideProperties::name, "database"));
		if (this.databases != null && this.databases.size() > 1 && this.databases.contains(AUTO)) {
			violations.add(new Violation("databases", "must be 'auto' alone or a list of database names"));
		}
		if (this.databases != null && this.exclude != null && !discovers()) {
			this.exclude.stream()
				.filter(this.databases::contains)
				.findFirst()
				.ifPresent((database) -> violations.add(new Violation("exclude",
						"names '" + database + "', which databases lists: list it in one of them")));
		}
		violations
			.addAll(CrossFieldChecked.duplicateNames("replicas", this.replicas, ReplicaProperties::name, "replica"));
		for (int i = 0; i < this.replicas.size(); i++) {
			String url = this.replicas.get(i).url();
			if (url != null && !url.matches("^jdbc:postgresql://[^/?]+.*")) {
				violations.add(new Violation("replicas[" + i + "].url", "must name a host (jdbc:postgresql://host...):"
						+ " each database's replica URL is made from it"));
			}
			if (TargetProperties.PRIMARY.equals(this.replicas.get(i).name())) {
				violations.add(new Violation("replicas[" + i + "].name", "no replica may be named 'primary'"));
			}
		}
		// A password in the URL is refused by CredentialsInUrls, which names the property
		// without printing the value.
		for (int i = 0; i < this.overrides.size(); i++) {
			DatabaseOverrideProperties override = this.overrides.get(i);
			if (override.name() == null || this.heartbeat == null || this.url == null) {
				continue;
			}
			String prefix = "overrides[" + i + "].";
			if (this.exclude != null && this.exclude.contains(override.name())) {
				violations.add(new Violation(prefix + "name", "database '" + override.name() + "' is excluded"));
			}
			target(this.name, override.name()).violations()
				.forEach((violation) -> violations
					.add(new Violation(prefix + violation.property(), violation.message())));
		}
		return violations;
	}

	/**
	 * What one database of a server sets differently from the server's defaults.
	 *
	 * @param name the database's name
	 * @param heartbeat the database's heartbeat settings, in place of the server's (all
	 * of them: unset ones take their defaults, not the server's); the server's when
	 * absent
	 * @param lossWarning the database's loss warning; the server's when absent
	 * @param slots slots of the database with a policy of their own, as for a target
	 */
	public record DatabaseOverrideProperties(@NotBlank @Size(max = 63) String name,
			@Valid HeartbeatProperties heartbeat,
			@DurationMin(millis = 1) @DurationMax(days = 365) Duration lossWarning,
			@NotNull @DefaultValue List<@Valid SlotPolicyProperties> slots) {

	}

}
