package io.slotkeeper.config;

/**
 * How a heartbeat writes its WAL record.
 */
public enum HeartbeatMode {

	/**
	 * {@code pg_logical_emit_message(transactional, prefix, content)}: reaches consumers
	 * that ask for logical messages (pgoutput with {@code messages 'true'},
	 * test_decoding).
	 */
	MESSAGE,

	/**
	 * An upsert of one row into the heartbeat table: reaches pgoutput consumers whose
	 * publication contains it.
	 */
	TABLE,

	/**
	 * The operator's own SQL, run as is.
	 */
	QUERY

}
