package io.slotkeeper.config;

import java.util.ArrayList;
import java.util.List;

import jakarta.validation.Valid;
import jakarta.validation.constraints.NotNull;
import jakarta.validation.constraints.Size;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.NestedConfigurationProperty;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.validation.annotation.Validated;

/**
 * Everything slot-keeper is told, under {@code slotkeeper}. An unknown key or an invalid
 * value stops start-up with the property's path.
 *
 * @param targets the PostgreSQL primaries to keep, one database each; none is allowed
 * (the service idles and says so)
 * @param servers PostgreSQL servers configured once, whose databases with logical slots
 * become targets as they are found
 * @param api the admin API
 * @param instanceId this instance's identity among the instances that share targets,
 * which spreads their ownership (rendezvous hashing); empty for the host name (the pod's
 * name on OpenShift) and process id, else a random one
 * @param strimzi how the {@code KafkaConnector} resources of Strimzi-managed connectors
 * are reached
 * @param connectorDiscovery Debezium connectors found from Kafka Connect and Strimzi
 * resources and matched to their slots
 * @param gapJournal what changes while a slot's consumer is away, journaled from a copy
 * of its slot
 * @param events Kubernetes Events for what slot-keeper does, on the connector's
 * {@code KafkaConnector} or slot-keeper's Pod (reached as {@code strimzi} says)
 */
@Validated
@Consistent
// Unknown keys are refused by StrictBindHandlerAdvisor, at every depth and in every form
// Spring binds. Spring's own
// check (ignoreUnknownFields = false) refuses environment variables that Spring itself
// binds: with
// SLOTKEEPER_TARGETS_0_LOSS_WARNING=7s the binder sets loss-warning to 7 s, then reports
// loss.warning as unbound.
@ConfigurationProperties(prefix = "slotkeeper", ignoreUnknownFields = true)
public record SlotKeeperProperties(@NotNull @DefaultValue List<@Valid TargetProperties> targets,
		@NotNull @DefaultValue List<@Valid ServerProperties> servers,
		@NotNull @Valid @DefaultValue @NestedConfigurationProperty ApiProperties api,
		@NotNull @Size(max = 253) @DefaultValue("") String instanceId,
		@NotNull @Valid @DefaultValue @NestedConfigurationProperty StrimziProperties strimzi,
		@NotNull @Valid @DefaultValue @NestedConfigurationProperty ConnectorDiscoveryProperties connectorDiscovery,
		@NotNull @Valid @DefaultValue @NestedConfigurationProperty GapJournalProperties gapJournal,
		@NotNull @Valid @DefaultValue @NestedConfigurationProperty EventsProperties events)
		implements
			CrossFieldChecked {

	@Override
	public List<Violation> violations() {
		List<Violation> violations = new ArrayList<>(
				CrossFieldChecked.duplicateNames("targets", this.targets, TargetProperties::name, "target name"));
		violations
			.addAll(CrossFieldChecked.duplicateNames("servers", this.servers, ServerProperties::name, "server name"));
		return violations;
	}

}
