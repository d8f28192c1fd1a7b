package io.slotkeeper.soak;

import java.util.Map;

import io.slotkeeper.testbed.CdcConnector;
import io.slotkeeper.testbed.RealKafkaConnect;

/**
 * A connector slot-keeper reaches through Kafka Connect's REST API; its user stops it
 * with {@code PUT …/stop}.
 *
 * @param connect the worker and its connector
 */
record RestSide(RealKafkaConnect connect) implements ConnectorSide {

	@Override
	public CdcConnector connector() {
		return this.connect;
	}

	@Override
	public Map<String, String> environment(String slotPrefix) {
		return Map.of(slotPrefix + "CONNECTOR_URL", this.connect.url(), slotPrefix + "CONNECTOR_NAME",
				RealKafkaConnect.NAME);
	}

	@Override
	public long statusLagMillis() {
		return 0;
	}

	@Override
	public void userStop() {
		this.connect.put("/stop");
	}

	@Override
	public void userResume() {
		this.connect.put("/resume");
	}

	@Override
	public void close() {
		this.connect.close();
	}

}
