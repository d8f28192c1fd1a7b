package io.slotkeeper.config;

/**
 * Where slot-keeper reads the state of a connector that Strimzi manages.
 */
public enum StrimziStatusFrom {

	/**
	 * The {@code KafkaConnector} resource's {@code status.connectorStatus}: needs nothing
	 * but the Role, and is as old as the operator's last reconcile (up to 2 minutes,
	 * Strimzi's default), so a task that failed is seen that late.
	 */
	RESOURCE,

	/**
	 * Kafka Connect's own {@code GET /connectors/{name}/status}, at the REST address in
	 * the status of the {@code KafkaConnect} named by the resource's
	 * {@code strimzi.io/cluster} label: read only, current at every poll; needs
	 * {@code kafkaconnects get} in the Role and a NetworkPolicy that admits slot-keeper
	 * to port 8083. While the worker cannot be read, the resource's status serves.
	 */
	WORKER

}
