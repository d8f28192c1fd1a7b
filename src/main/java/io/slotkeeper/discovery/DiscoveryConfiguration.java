package io.slotkeeper.discovery;

import java.io.IOException;
import java.nio.file.Files;
import java.time.Clock;

import io.micrometer.core.instrument.MeterRegistry;

import org.springframework.boot.health.contributor.HealthContributor;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

import io.slotkeeper.audit.Auditor;
import io.slotkeeper.config.KubernetesAuthProperties;
import io.slotkeeper.config.SlotKeeperProperties;
import io.slotkeeper.connect.ConnectorSource;
import io.slotkeeper.fleet.Fleet;
import io.slotkeeper.lanes.LaneWatch;

/**
 * Wires the scans of the configured servers, and the listings of connectors, onto the
 * fleet.
 */
@Configuration(proxyBeanMethods = false)
class DiscoveryConfiguration {

	@Bean
	ServerDiscovery serverDiscovery(Fleet fleet, Auditor auditor, LaneWatch lanes, MeterRegistry registry,
			Clock clock) {
		return new ServerDiscovery(fleet, auditor, lanes, registry, clock);
	}

	@Bean
	ConnectorDiscovery connectorDiscovery(SlotKeeperProperties properties, Fleet fleet, LaneWatch lanes,
			MeterRegistry registry, Clock clock) {
		ConnectorDiscovery discovery = new ConnectorDiscovery(
				ConnectorSource.of(properties.connectorDiscovery(), properties.strimzi()), fleet,
				properties.connectorDiscovery(), ownNamespace(properties), lanes, registry, clock);
		fleet.watch(discovery);
		return discovery;
	}

	// Where short host names are resolved: the configured namespace, or the pod's; none
	// outside a pod.
	private static String ownNamespace(SlotKeeperProperties properties) {
		String configured = properties.api().kubernetes().namespace();
		if (configured != null && !configured.isBlank()) {
			return configured;
		}
		try {
			return Files.isReadable(KubernetesAuthProperties.NAMESPACE_FILE)
					? Files.readString(KubernetesAuthProperties.NAMESPACE_FILE).strip() : null;
		}
		catch (IOException ex) {
			return null;
		}
	}

	@Bean
	HealthContributor serversHealthContributor(ServerDiscovery discovery) {
		return ServerHealth.of(discovery);
	}

}
