package io.slotkeeper.testbed;

/**
 * PostgreSQL LSNs as numbers.
 */
public final class Lsn {

	private Lsn() {
	}

	/**
	 * Parses {@code X/Y}.
	 * @param lsn the LSN as PostgreSQL prints it
	 * @return its byte position
	 */
	public static long parse(String lsn) {
		int slash = lsn.indexOf('/');
		return (Long.parseLong(lsn.substring(0, slash), 16) << 32) | Long.parseLong(lsn.substring(slash + 1), 16);
	}

}
