package io.slotkeeper.slot;

/**
 * The listing query, for benchmarks that time it next to the API.
 */
public final class SlotListing {

	private SlotListing() {
	}

	/**
	 * The listing query for a server version.
	 * @param major the server's major version
	 * @return the query
	 */
	public static String sql(int major) {
		return io.slotkeeper.replication.SlotRepository.listing(major, false);
	}

}
