package io.slotkeeper.handover;

import java.util.List;
import java.util.Map;

import io.slotkeeper.connect.ConnectorStatus;

/**
 * What became of a slot's connector after the slot was recreated.
 *
 * @param connector the connector's name
 * @param method {@code align} (offsets set to the new slot's position), {@code reset}
 * (offsets deleted), {@code restart} (offsets left alone: the connector and its failed
 * tasks restarted) or {@code pending} (Kafka Connect could not be reached: nothing
 * changed yet, the handover is completed once it answers)
 * @param reason why that method rather than the configured one, {@code null} when it is
 * the configured one (for example Debezium's own {@code offset.mismatch.strategy})
 * @param running whether the connector and all its tasks were RUNNING within
 * {@code running-timeout}
 * @param offsetsBefore its stored offsets before, as Kafka Connect listed them;
 * {@code null} when not read
 * @param offsetsAfter its stored offsets after the change; {@code null} when not read
 * @param state its status at the end, the failed task's first trace line included
 * @param warning what did not go as configured and what to do about it, {@code null} when
 * all did
 * @param leftAs {@code stopped} or {@code paused} when the connector's user had stopped
 * or paused it before the handover, which then aligned its offsets and left it so;
 * {@code null} when it was meant to run
 * @param completedFrom the {@link HandoverPhase#name() phase} it was completed from, what
 * reading the connector before the change found: {@code stopped}, {@code left-alone},
 * {@code self-healing}, {@code refused}, {@code unreachable}, or {@code planned} when
 * nothing was read before
 */
public record ConnectorHandover(String connector, String method, String reason, boolean running,
		List<Map<String, Object>> offsetsBefore, List<Map<String, Object>> offsetsAfter, ConnectorStatus state,
		String warning, String leftAs, String completedFrom) {

	/**
	 * How the warning of a handover whose offsets change Kafka Connect refused begins.
	 */
	static final String OFFSETS_NOT_CHANGED = "offsets not changed: ";

	/**
	 * The method of a handover that waits for Kafka Connect to answer.
	 */
	public static final String PENDING = "pending";

	/**
	 * Whether it waits for Kafka Connect to answer.
	 * @return whether its method is {@link #PENDING}
	 */
	public boolean pending() {
		return PENDING.equals(this.method);
	}

	/**
	 * Whether the connector reads the new slot, or will once its user starts it again: it
	 * runs, or it was left stopped or paused as its user had it (a re-snapshot signal
	 * then waits in the slot until it runs).
	 * @return whether the handover is complete
	 */
	public boolean handedOver() {
		return this.running || this.leftAs != null;
	}

	/**
	 * Whether the connector will read the new slot once it runs: handed over, or its
	 * offsets set to the new slot (aligned or reset) although it does not run now (its
	 * task failed again, its user stopped it during the handover). A re-snapshot signal
	 * written now waits in the slot for it; one whose offsets were not moved may never
	 * read it.
	 * @return whether signals for the new slot reach the connector
	 */
	public boolean readsTheNewSlot() {
		boolean moved = ("align".equals(this.method) || "reset".equals(this.method))
				&& (this.warning == null || !this.warning.startsWith(OFFSETS_NOT_CHANGED));
		return handedOver() || moved;
	}

	/**
	 * The handover in one line, for the audit and the logs.
	 * @return for example {@code orders-debezium: align, RUNNING, from phase stopped}
	 */
	public String describe() {
		String outcome;
		if (this.leftAs != null) {
			outcome = "left " + this.leftAs + " as it was";
		}
		else if (this.running) {
			outcome = "RUNNING";
		}
		else {
			outcome = "not running (" + ((this.state != null) ? this.state.summary() : "state unknown") + ")";
		}
		return this.connector + ": " + this.method + ((this.reason != null) ? " (" + this.reason + ")" : "") + ", "
				+ outcome + ((this.completedFrom != null) ? ", from phase " + this.completedFrom : "")
				+ ((this.warning != null) ? "; " + this.warning : "");
	}

}
