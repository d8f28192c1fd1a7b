/**
 * A slot's connector, reached through one seam ({@code ConnectorApi}) with two implementations: Kafka Connect's REST
 * API, or the Strimzi operator's {@code KafkaConnector} resource (its state read from the resource or, with
 * {@code status-from: worker}, from the worker). On it: the handover to a recreated slot (stop, offsets, restore),
 * restarts, the connectors listed for discovery ({@code ConnectorSource}, the same two kinds) and the connector
 * settings audit.
 */
package io.slotkeeper.connect;
