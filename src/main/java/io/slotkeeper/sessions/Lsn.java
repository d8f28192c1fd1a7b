package io.slotkeeper.sessions;

/**
 * PostgreSQL LSNs as byte positions.
 */
public final class Lsn {

	private Lsn() {
	}

	/**
	 * Parses {@code X/Y}.
	 * @param lsn the LSN as PostgreSQL prints it
	 * @return its byte position
	 * @throws IllegalArgumentException when it is not an LSN
	 */
	public static long parse(String lsn) {
		int slash = lsn.indexOf('/');
		if (slash < 1 || slash == lsn.length() - 1) {
			throw new IllegalArgumentException("not an LSN: '" + lsn + "'");
		}
		return (Long.parseLong(lsn.substring(0, slash), 16) << 32) | Long.parseLong(lsn.substring(slash + 1), 16);
	}

	/**
	 * Prints a byte position as PostgreSQL does.
	 * @param position the byte position
	 * @return {@code X/Y}, upper-case hexadecimal
	 */
	public static String format(long position) {
		return Long.toHexString(position >>> 32).toUpperCase() + "/"
				+ Long.toHexString(position & 0xFFFFFFFFL).toUpperCase();
	}

	/**
	 * Bytes from one LSN to another.
	 * @param from the earlier LSN, or {@code null}
	 * @param to the later LSN, or {@code null}
	 * @return {@code to - from}, or {@code null} when either is unknown
	 */
	public static Long distance(String from, String to) {
		return (from == null || to == null) ? null : parse(to) - parse(from);
	}

}
