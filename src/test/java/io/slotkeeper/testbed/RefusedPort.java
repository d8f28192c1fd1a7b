package io.slotkeeper.testbed;

/**
 * A loopback port that refuses every connection for the whole run. A port found free and
 * closed again is only free for a moment: a server another test starts on port 0 may take
 * it, and a context that lives for the whole run then reaches that server where it meant
 * to reach nothing (CI: a "dead" Kafka Connect endpoint that answered). Port 1 is below
 * the kernel's ephemeral range, so no such server is ever given it.
 */
public final class RefusedPort {

	/**
	 * The port.
	 */
	public static final int PORT = 1;

	private RefusedPort() {
	}

}
