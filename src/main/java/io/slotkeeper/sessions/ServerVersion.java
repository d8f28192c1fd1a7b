package io.slotkeeper.sessions;

/**
 * The version of a target server.
 *
 * @param number {@code server_version_num}, for example {@code 170006}
 * @param text {@code server_version}, for example {@code 17.6}
 */
public record ServerVersion(int number, String text) {

	/**
	 * The major version, for example {@code 17}.
	 * @return the major version
	 */
	public int major() {
		return this.number / 10000;
	}

}
