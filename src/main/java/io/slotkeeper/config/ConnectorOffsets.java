package io.slotkeeper.config;

/**
 * What slot-keeper does with a connector's stored offsets when it recreates the
 * connector's slot. A Debezium task whose offset predates the new slot fails at once ("no
 * longer available on the server"), so a plain restart leaves the pipeline down.
 */
public enum ConnectorOffsets {

	/**
	 * Stop the connector, set its offsets to the new slot's confirmed position, resume it
	 * and wait until it runs (Kafka Connect 3.6+, KIP-875): it streams from exactly where
	 * the new slot starts, whatever its snapshot mode.
	 */
	ALIGN,

	/**
	 * Stop the connector, delete its offsets, resume it and wait until it runs: it starts
	 * as new, as its {@code snapshot.mode} says (a full snapshot with {@code initial}).
	 */
	RESET,

	/**
	 * Leave the offsets alone and only restart the connector and its failed tasks (before
	 * 3.6, the only choice).
	 */
	LEAVE

}
