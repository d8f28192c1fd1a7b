package io.slotkeeper.discovery;

import java.nio.charset.StandardCharsets;
import java.util.Locale;
import java.util.Set;
import java.util.zip.CRC32;

/**
 * The target name of a server's database: {@code <server>-<database>} in lower case with every other character than
 * letters and digits made a dash; when that is longer than a target name may be (63) or another database of the
 * server already has it, the name is shortened and ends with a checksum of the database's own name.
 */
final class TargetNames {

	private static final int MAX = 63;

	private static final int SUFFIX = 7;

	private TargetNames() {
	}

	/**
	 * A database's target name.
	 * @param server the server's name
	 * @param database the database's name
	 * @param taken names that other databases already have
	 * @return the name, a valid target name
	 */
	static String of(String server, String database, Set<String> taken) {
		String plain = (server + "-" + database).toLowerCase(Locale.ROOT)
			.replaceAll("[^a-z0-9]+", "-")
			.replaceAll("^-+|-+$", "");
		if (plain.length() <= MAX && !taken.contains(plain)) {
			return plain;
		}
		CRC32 checksum = new CRC32();
		checksum.update(database.getBytes(StandardCharsets.UTF_8));
		String suffix = String.format("-%06x", checksum.getValue() & 0xffffff);
		String head = plain.substring(0, Math.min(plain.length(), MAX - SUFFIX)).replaceAll("-+$", "");
		return head + suffix;
	}

}
