package io.slotkeeper.config;

import jakarta.validation.constraints.NotBlank;
import jakarta.validation.constraints.Pattern;

/**
 * A connector managed by the Strimzi (AMQ Streams) operator: its {@code KafkaConnector}
 * resource, changed through the Kubernetes API with the pod's service account instead of
 * Kafka Connect's REST API, which Strimzi's NetworkPolicy closes to other pods and whose
 * state changes its operator reverts.
 *
 * @param namespace the resource's namespace
 * @param name the resource's name, which is also the connector's name in Kafka Connect
 */
public record StrimziConnectorProperties(
		@NotBlank @Pattern(regexp = "^[a-z0-9]([-a-z0-9]{0,61}[a-z0-9])?$",
				message = "must be a Kubernetes namespace name") String namespace,
		@NotBlank @Pattern(regexp = "^[a-z0-9]([-.a-z0-9]{0,251}[a-z0-9])?$",
				message = "must be a Kubernetes resource name") String name) {

}
