package io.slotkeeper.support;

import java.util.concurrent.ThreadFactory;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Named daemon threads for slot-keeper's own executors: they never keep the JVM from
 * stopping, and a thread dump says whose they are.
 */
public final class DaemonThreads {

	private DaemonThreads() {
	}

	/**
	 * A factory of daemon threads.
	 * @param prefix the threads' name; ending in {@code -}, each is numbered after it
	 * @return the factory
	 */
	public static ThreadFactory named(String prefix) {
		AtomicInteger count = new AtomicInteger();
		return (runnable) -> {
			Thread thread = new Thread(runnable, prefix.endsWith("-") ? prefix + count.incrementAndGet() : prefix);
			thread.setDaemon(true);
			return thread;
		};
	}

}
