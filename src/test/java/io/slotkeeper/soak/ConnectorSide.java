package io.slotkeeper.soak;

import java.util.Map;

import io.slotkeeper.testbed.CdcConnector;

/**
 * How a soak pipeline's connector is reached and managed: through Kafka Connect's REST
 * API ({@link RestSide}), or through a Strimzi {@code KafkaConnector} resource that the
 * operator emulation reconciles ({@link StrimziSide}). What differs is slot-keeper's
 * configuration of it and how its user stops it.
 */
interface ConnectorSide extends AutoCloseable {

	/**
	 * The connector itself.
	 * @return it
	 */
	CdcConnector connector();

	/**
	 * slot-keeper's environment variables for the slot's connector.
	 * @param slotPrefix the slot's variable prefix, such as
	 * {@code SLOTKEEPER_TARGETS_0_SLOTS_0_}
	 * @return the variables
	 */
	Map<String, String> environment(String slotPrefix);

	/**
	 * How late slot-keeper may read the connector's state: 0 where it asks the worker,
	 * the operator's full reconciliation interval where it reads the
	 * {@code KafkaConnector}'s status.
	 * @return the lag, in milliseconds
	 */
	long statusLagMillis();

	/**
	 * The user stops the connector, as they would where it is managed.
	 */
	void userStop();

	/**
	 * The user resumes it.
	 */
	void userResume();

	@Override
	void close();

}
