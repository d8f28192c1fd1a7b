package io.slotkeeper.testbed;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Map;
import java.util.Set;
import java.util.stream.Stream;

/**
 * A streaming standby of an embedded primary, built from the embedded binaries alone
 * (they have no pg_basebackup): a physical slot on the primary, a low-level base backup
 * copied in Java, {@code standby.signal} and {@code primary_conninfo}. The recipe is the
 * facts page's.
 */
public final class Standby {

	private static final Set<String> SKIPPED = Set.of("postmaster.pid", "postmaster.opts", "epg-lock");

	private static final Set<String> EMPTIED = Set.of("pg_wal", "pg_replslot", "pg_stat_tmp");

	private Standby() {
	}

	/**
	 * Starts a standby of {@code primary}, streaming through a physical slot named
	 * {@code standby_<port>}.
	 * @param primary an embedded primary
	 * @param dataDirectory the primary's data directory
	 * @param syncSlots whether it synchronizes failover slots (from PostgreSQL 17;
	 * ignored before)
	 * @return the running standby; the caller closes it
	 */
	static PostgresServer of(PostgresServer primary, Path dataDirectory, boolean syncSlots) {
		return of(primary, dataDirectory, syncSlots, "standby_" + primary.port());
	}

	/**
	 * Starts a standby of {@code primary}, streaming through the physical slot
	 * {@code slot}.
	 * @param primary an embedded primary
	 * @param dataDirectory the primary's data directory
	 * @param syncSlots whether it synchronizes failover slots (from PostgreSQL 17;
	 * ignored before)
	 * @param slot the physical slot it streams through, created on the primary
	 * @return the running standby; the caller closes it
	 */
	static EmbeddedPostgresServer of(PostgresServer primary, Path dataDirectory, boolean syncSlots, String slot) {
		primary.execute("postgres", "SELECT pg_create_physical_replication_slot('" + slot + "', true)");
		int major = primary.majorVersion();
		boolean sync = syncSlots && major >= 17;
		return new EmbeddedPostgresServer(Map.copyOf(PostgresServer.LOGICAL_DECODING), (copy) -> {
			try (Connection session = primary.connect("postgres"); Statement statement = session.createStatement()) {
				statement.execute((major >= 15) ? "SELECT pg_backup_start('slot-keeper-standby', true)"
						: "SELECT pg_start_backup('slot-keeper-standby', true, false)");
				copyDataDirectory(dataDirectory, copy);
				try (ResultSet stop = statement
					.executeQuery((major >= 15) ? "SELECT labelfile FROM pg_backup_stop(true)"
							: "SELECT labelfile FROM pg_stop_backup(false, true)")) {
					stop.next();
					Files.writeString(copy.resolve("backup_label"), stop.getString(1));
				}
				follow(copy, primary, slot, sync);
			}
			catch (SQLException ex) {
				throw new IllegalStateException(ex);
			}
			catch (IOException ex) {
				throw new UncheckedIOException(ex);
			}
		});
	}

	/**
	 * Turns a stopped server's data directory into a standby of {@code primary} through
	 * the physical slot {@code slot}: {@code standby.signal}, and in
	 * {@code postgresql.auto.conf} (whose later lines win) {@code primary_conninfo},
	 * {@code primary_slot_name}, {@code hot_standby_feedback} and, when {@code sync},
	 * {@code sync_replication_slots} with {@code dbname} in the conninfo.
	 */
	static void follow(Path dataDirectory, PostgresServer primary, String slot, boolean sync) throws IOException {
		Files.writeString(dataDirectory.resolve("standby.signal"), "");
		Files.writeString(dataDirectory.resolve("postgresql.auto.conf"),
				"\nprimary_conninfo = 'host=localhost port=" + primary.port() + " user=postgres"
						+ (sync ? " dbname=postgres" : "") + "'\n" + "primary_slot_name = '" + slot
						+ "'\nhot_standby_feedback = on\n" + (sync ? "sync_replication_slots = on\n" : ""),
				StandardCharsets.UTF_8, StandardOpenOption.CREATE, StandardOpenOption.APPEND);
	}

	/**
	 * Makes a stopped former primary a slot-synchronizing standby of the server that took
	 * over from it, through a new physical slot {@code rejoined_<port>} there, and starts
	 * it: a clean switchover's old primary rejoins without a rewind, since its last
	 * record is the shutdown checkpoint the new primary received.
	 */
	static void rejoin(EmbeddedPostgresServer former, Path dataDirectory, PostgresServer primary) {
		String slot = "rejoined_" + former.port();
		primary.execute("postgres", "SELECT pg_create_physical_replication_slot('" + slot + "', true)");
		try {
			follow(dataDirectory, primary, slot, primary.majorVersion() >= 17);
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
		former.start();
	}

	private static void copyDataDirectory(Path from, Path to) throws IOException {
		Files.setPosixFilePermissions(to, PosixFilePermissions.fromString("rwx------"));
		try (Stream<Path> paths = Files.walk(from)) {
			for (Path source : (Iterable<Path>) paths::iterator) {
				Path relative = from.relativize(source);
				if (relative.toString().isEmpty() || SKIPPED.contains(relative.toString())) {
					continue;
				}
				if (relative.getNameCount() > 1 && EMPTIED.contains(relative.getName(0).toString())) {
					continue;
				}
				Path target = to.resolve(relative.toString());
				if (Files.isDirectory(source)) {
					Files.createDirectories(target);
				}
				else {
					Files.copy(source, target);
				}
			}
		}
	}

}
