/**
 * A slot's connector, reached through one seam ({@code ConnectorApi}) with two
 * implementations: Kafka Connect's REST API, or the Strimzi operator's
 * {@code KafkaConnector} resource (its state read from the resource or, with
 * {@code status-from: worker}, from the worker). On it: the calls a handover makes (stop,
 * offsets, restore: {@code ConnectorLifecycle}; waiting for a state:
 * {@code ConnectorWaits}), restarts, the connectors listed for discovery
 * ({@code ConnectorSource}, the same two kinds) and the connector settings audit. The
 * handover itself is {@code handover}'s.
 */
@ApplicationModule(allowedDependencies = { "config", "kubernetes", "settings", "support" })
package io.slotkeeper.connect;

import org.springframework.modulith.ApplicationModule;
