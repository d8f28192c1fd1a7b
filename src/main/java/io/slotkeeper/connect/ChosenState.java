package io.slotkeeper.connect;

import java.util.Locale;

/**
 * The state a connector's user chose for it, which a handover keeps: a connector stopped
 * or paused before its slot was recreated is aligned to the new slot and left stopped or
 * paused, never started.
 */
public enum ChosenState {

	/**
	 * Running (Kafka Connect's target state STARTED; Strimzi's
	 * {@code spec.state: running}, the default).
	 */
	RUNNING,

	/**
	 * Paused ({@code PUT …/pause}; Strimzi's {@code spec.state: paused} or the older
	 * {@code spec.pause: true}).
	 */
	PAUSED,

	/**
	 * Stopped ({@code PUT …/stop}, Kafka Connect 3.5+; Strimzi's
	 * {@code spec.state: stopped}).
	 */
	STOPPED;

	/**
	 * The state Kafka Connect reports a connector in, as the user's choice: PAUSED and
	 * STOPPED were chosen, any other (RUNNING, FAILED, UNASSIGNED, RESTARTING) means it
	 * is meant to run.
	 * @param connectState the connector's state in {@code GET …/status}
	 * @return the choice
	 */
	public static ChosenState ofConnect(String connectState) {
		if ("PAUSED".equals(connectState)) {
			return PAUSED;
		}
		return "STOPPED".equals(connectState) ? STOPPED : RUNNING;
	}

	/**
	 * A choice by its lower-case name, as kept in a table or a Strimzi
	 * {@code spec.state}.
	 * @param name {@code running}, {@code paused} or {@code stopped}; anything else or
	 * {@code null} is running
	 * @return the choice
	 */
	public static ChosenState named(String name) {
		if (name == null) {
			return RUNNING;
		}
		return switch (name.strip().toLowerCase(Locale.ROOT)) {
			case "paused" -> PAUSED;
			case "stopped" -> STOPPED;
			default -> RUNNING;
		};
	}

	/**
	 * The lower-case name.
	 * @return {@code running}, {@code paused} or {@code stopped}
	 */
	public String lowerCase() {
		return name().toLowerCase(Locale.ROOT);
	}

}
