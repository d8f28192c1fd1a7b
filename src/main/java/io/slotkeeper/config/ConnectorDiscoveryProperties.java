package io.slotkeeper.config;

import java.time.Duration;
import java.util.List;

import jakarta.validation.Valid;
import jakarta.validation.constraints.NotNull;
import jakarta.validation.constraints.Pattern;
import org.hibernate.validator.constraints.time.DurationMax;
import org.hibernate.validator.constraints.time.DurationMin;

import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * Debezium PostgreSQL connectors found rather than configured: listed from Kafka Connect
 * workers and from Strimzi {@code KafkaConnector} resources, each matched to its slot by
 * {@code database.hostname}, {@code database.port}, {@code database.dbname} and
 * {@code slot.name} (default {@code debezium}). A matched connector is the slot's
 * connector wherever its policy names none; a connector whose slot is on no target is
 * reported as unprotected.
 *
 * @param interval how often every source is listed
 * @param kafkaConnect Kafka Connect clusters listed through their REST API
 * ({@code GET /connectors?expand=info&expand=status})
 * @param strimziNamespaces namespaces whose {@code KafkaConnector} resources are listed
 * through the Kubernetes API (reached as {@code slotkeeper.strimzi} says; the Role needs
 * {@code list} on {@code kafkaconnectors}); a connector found there is changed through
 * its resource, never through the REST API
 * @param offsets what a found connector's handover does with its offsets after a
 * recreate, as {@code connector.offsets}
 * @param runningTimeout how long a found connector's handover waits for it to run again,
 * as {@code connector.running-timeout}
 * @param resnapshot how a found connector's slot is re-snapshotted after a recreate when
 * its policy says {@code none}: {@code debezium-signal} (default: its signal table and
 * tables are read from the connector's {@code signal.data.collection} and
 * {@code table.include.list}) or {@code none}
 * @param resnapshotTables which tables that re-snapshot reads: {@code all} (default) or
 * {@code changed}, only those written to while the slot was lost, as a slot's
 * {@code resnapshot.tables}
 * @param onLost what to do with a found connector's lost slot when no policy of the slot
 * says: {@code alert} (default) or {@code recreate}
 * @param onFailed what to do with a found connector that is FAILED while its slot is
 * healthy, when no policy of the slot says: {@code alert} (default) or {@code restart},
 * as a slot's {@code on-failed}
 */
public record ConnectorDiscoveryProperties(
		@NotNull @DurationMin(seconds = 1) @DurationMax(hours = 1) @DefaultValue("60s") Duration interval,
		@NotNull @DefaultValue List<@Valid KafkaConnectProperties> kafkaConnect,
		@NotNull @DefaultValue List<@NotNull @Pattern(regexp = "^[a-z0-9]([-a-z0-9]{0,61}[a-z0-9])?$",
				message = "must be a Kubernetes namespace name") String> strimziNamespaces,
		@NotNull @DefaultValue("align") ConnectorOffsets offsets,
		@NotNull @DurationMin(millis = 1) @DurationMax(minutes = 10) @DefaultValue("60s") Duration runningTimeout,
		@NotNull @DefaultValue("debezium-signal") ResnapshotProperties.Mode resnapshot,
		@NotNull @DefaultValue("all") ResnapshotProperties.Tables resnapshotTables,
		@NotNull @DefaultValue("alert") OnLost onLost, @NotNull @DefaultValue("alert") OnFailed onFailed) {

	/**
	 * Whether any source is configured.
	 * @return whether connectors are discovered at all
	 */
	public boolean enabled() {
		return !this.kafkaConnect.isEmpty() || !this.strimziNamespaces.isEmpty();
	}

	/**
	 * One Kafka Connect cluster whose connectors are listed.
	 *
	 * @param url base URL of its REST API, for example {@code http://connect:8083}
	 * @param username basic-auth user, when the REST API asks for one
	 * @param password basic-auth password; never logged or shown
	 * @param timeout longest time one call may take, connecting included
	 */
	public record KafkaConnectProperties(
			@NotNull @Pattern(regexp = "^https?://[^\\s?#]+$",
					message = "must be an http or https URL without query") String url,
			String username, Secret password,
			@NotNull @DurationMin(millis = 1) @DurationMax(minutes = 5) @DefaultValue("10s") Duration timeout) {

	}

}
