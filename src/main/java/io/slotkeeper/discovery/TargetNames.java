package io.slotkeeper.discovery;

import java.nio.charset.StandardCharsets;
import java.util.Locale;
import java.util.regex.Pattern;
import java.util.zip.CRC32;

/**
 * The target name of a server's database, a function of the server's and the database's
 * names alone, so that every instance, whenever it started and in whatever order the
 * databases appeared, gives a database the same name (the owner lock is keyed by it). A
 * database named in PostgreSQL's plain form ({@code [a-z0-9]} words joined by single
 * underscores) is {@code <server>-<database>} with its underscores made dashes; that form
 * maps no two databases to one name. Any other name (capitals, dashes, dots, long) is
 * made lower case with every run of other characters a dash, shortened to fit 63
 * characters, and ends with a checksum of the database's own name.
 */
final class TargetNames {

	private static final int MAX = 63;

	private static final int SUFFIX = 7;

	private static final Pattern PLAIN = Pattern.compile("[a-z0-9]+(_[a-z0-9]+)*");

	private TargetNames() {
	}

	/**
	 * A database's target name.
	 * @param server the server's name
	 * @param database the database's name
	 * @return the name, a valid target name
	 */
	static String of(String server, String database) {
		String plain = server + "-" + database.replace('_', '-');
		if (PLAIN.matcher(database).matches() && plain.length() <= MAX) {
			return plain;
		}
		String folded = (server + "-" + database).toLowerCase(Locale.ROOT)
			.replaceAll("[^a-z0-9]+", "-")
			.replaceAll("^-+|-+$", "");
		CRC32 checksum = new CRC32();
		checksum.update(database.getBytes(StandardCharsets.UTF_8));
		String suffix = String.format("-%06x", checksum.getValue() & 0xffffff);
		String head = folded.substring(0, Math.min(folded.length(), MAX - SUFFIX)).replaceAll("-+$", "");
		return head + suffix;
	}

}
