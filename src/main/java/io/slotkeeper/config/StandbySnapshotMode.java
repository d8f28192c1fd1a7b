package io.slotkeeper.config;

/**
 * Whether a heartbeat also logs a standby snapshot ({@code pg_log_standby_snapshot()},
 * PostgreSQL 16+): a running-transactions record of its own, ordered so that the target's
 * consumers move their slots to it within the beat instead of waiting for the background
 * writer's (at most every 15 s). {@code true} and {@code false} bind to {@code on} and
 * {@code off}.
 */
public enum StandbySnapshotMode {

	/**
	 * Where the role may call it (PostgreSQL 16+, superuser or an explicit GRANT, checked
	 * on each new session); plain beats elsewhere, and the target's status says what
	 * floor applies and why.
	 */
	AUTO,

	/**
	 * Always tried; a refusal is reported once (status, health and a WARN line) and
	 * heartbeats go on without it.
	 */
	ON,

	/**
	 * Never.
	 */
	OFF

}
