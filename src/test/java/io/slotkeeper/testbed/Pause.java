package io.slotkeeper.testbed;

import java.util.concurrent.TimeUnit;

/**
 * The pause between attempts of the test bed's own clients (a consumer reconnecting, a
 * writer retrying), as real clients pause: not a test waiting for a condition.
 */
final class Pause {

	private Pause() {
	}

	/**
	 * Pauses the calling thread.
	 * @param millis how long
	 * @return {@code false} when interrupted, so that the caller's loop ends
	 */
	static boolean of(long millis) {
		try {
			TimeUnit.MILLISECONDS.sleep(millis);
			return true;
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			return false;
		}
	}

}
