package io.slotkeeper.soak;

import java.util.Map;

import io.slotkeeper.testbed.CdcConnector;
import io.slotkeeper.testbed.RealKafkaConnect;
import io.slotkeeper.testbed.StrimziManagedConnect;

/**
 * A connector managed by Strimzi: slot-keeper is told its {@code KafkaConnector} resource
 * on the Kubernetes API stand-in and reads its state from the resource's status
 * ({@code status-from: resource}, the default: as fresh as the operator's last
 * reconcile), its user stops it with {@code spec.state: stopped}, and the operator
 * emulation, which goes through the API as the operator does, restarts a failed task too
 * ({@code spec.autoRestart}, with Strimzi's backoff), beside slot-keeper's
 * {@code on-failed: restart}.
 *
 * @param strimzi the worker, the resource and the operator emulation
 */
record StrimziSide(StrimziManagedConnect strimzi) implements ConnectorSide {

	@Override
	public CdcConnector connector() {
		return this.strimzi;
	}

	@Override
	public Map<String, String> environment(String slotPrefix) {
		return Map.of(slotPrefix + "CONNECTOR_STRIMZI_NAMESPACE", StrimziManagedConnect.NAMESPACE,
				slotPrefix + "CONNECTOR_STRIMZI_NAME", RealKafkaConnect.NAME, "SLOTKEEPER_STRIMZI_API_SERVER",
				this.strimzi.api().url(), "SLOTKEEPER_STRIMZI_SERVICE_ACCOUNT_TOKEN_FILE",
				this.strimzi.tokenFile().toString(), "SLOTKEEPER_STRIMZI_STATUS_FROM", "resource");
	}

	@Override
	public long statusLagMillis() {
		return StrimziManagedConnect.FULL_RECONCILIATION.toMillis();
	}

	@Override
	public void userStop() {
		this.strimzi.userState("stopped");
	}

	@Override
	public void userResume() {
		this.strimzi.userState("running");
	}

	@Override
	public void close() {
		this.strimzi.close();
	}

}
