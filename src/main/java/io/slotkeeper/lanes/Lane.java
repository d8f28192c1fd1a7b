package io.slotkeeper.lanes;

/**
 * Where a repeating task's next run goes ({@link WorkerLanes}).
 */
public enum Lane {

	/**
	 * On an open session that answered last time: takes a statement's time.
	 */
	QUICK,

	/**
	 * Must connect, but has not failed: a first connection or a reconnection.
	 */
	CONNECT,

	/**
	 * Failed last time: may hold its thread for a timeout again; never takes the threads
	 * of the other lanes.
	 */
	RETRY

}
