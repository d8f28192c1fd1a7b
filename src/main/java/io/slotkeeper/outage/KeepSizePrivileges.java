package io.slotkeeper.outage;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;

import static io.slotkeeper.outage.KeepSizeGuard.SETTING;

/**
 * What slot-keeper's role may do to {@code max_slot_wal_keep_size}, and where the
 * setting's value comes from: read before each raise by the {@link KeepSizeGuard}.
 *
 * @param alterSystem whether the role may {@code ALTER SYSTEM} the setting
 * @param reload whether it may call {@code pg_reload_conf()}
 * @param version the server's major version
 * @param source where the value comes from, as {@code pg_settings.source} says
 * ({@code configuration file}, {@code command line}, ...)
 * @param sourceFile the file the value comes from, {@code null} where the role may not
 * see it
 * @param database the database asked: a function's privileges are granted per database
 */
record KeepSizePrivileges(boolean alterSystem, boolean reload, int version, String source, String sourceFile,
		String database) {

	private static final String AUTO_CONF = "postgresql.auto.conf";

	static KeepSizePrivileges read(Connection connection) throws SQLException {
		int version = connection.getMetaData().getDatabaseMajorVersion();
		// has_parameter_privilege exists from PostgreSQL 15, with GRANT ALTER SYSTEM ON
		// PARAMETER; before, only a
		// superuser may.
		String alter = (version >= 15) ? "pg_catalog.has_parameter_privilege('" + SETTING + "', 'ALTER SYSTEM')"
				: "pg_catalog.current_setting('is_superuser') = 'on'";
		try (Statement statement = connection.createStatement();
				ResultSet row = statement.executeQuery("SELECT " + alter + ", pg_catalog.has_function_privilege("
						+ "'pg_catalog.pg_reload_conf()', 'EXECUTE'), source, sourcefile FROM pg_catalog.pg_settings"
						+ " WHERE name = '" + SETTING + "'")) {
			row.next();
			return new KeepSizePrivileges(row.getBoolean(1), row.getBoolean(2), version, row.getString(3),
					row.getString(4), connection.getCatalog());
		}
	}

	/**
	 * The statement that puts a value back as it was: {@code RESET} where it was the
	 * default or came from {@code postgresql.conf}, {@code SET} where
	 * {@code postgresql.auto.conf} held it, or where the role may not see which
	 * ({@link #restoreNote} then says what that leaves).
	 * @param megabytes the value before the raise
	 * @return the statement
	 */
	String restore(long megabytes) {
		boolean autoConf = (this.sourceFile != null) ? this.sourceFile.endsWith(AUTO_CONF)
				: !"default".equals(this.source);
		return autoConf ? "ALTER SYSTEM SET " + SETTING + " = '" + megabytes + "MB'" : "ALTER SYSTEM RESET " + SETTING;
	}

	/**
	 * What the put-back may leave in {@code postgresql.auto.conf}, empty when it leaves
	 * nothing that was not there.
	 * @param role the role slot-keeper logs in as
	 * @return the note, for the audit
	 */
	String restoreNote(String role) {
		if (this.sourceFile != null || "default".equals(this.source)) {
			return "";
		}
		return "; role " + role + " may not see whether the value came from postgresql.conf or " + AUTO_CONF
				+ " (GRANT pg_read_all_settings TO " + role + " lets it), so the put-back writes it into " + AUTO_CONF
				+ ": if it came from postgresql.conf, ALTER SYSTEM RESET " + SETTING + " removes it from there";
	}

	String refusal(String role) {
		// ALTER SYSTEM writes postgresql.auto.conf, which a command-line option
		// overrides.
		if (!"configuration file".equals(this.source) && !"default".equals(this.source)) {
			return "its value comes from the " + this.source + ", which ALTER SYSTEM cannot override";
		}
		if (!this.alterSystem) {
			return "role " + role + " may not ALTER SYSTEM " + SETTING
					+ ((this.version >= 15) ? " (GRANT ALTER SYSTEM ON PARAMETER " + SETTING + " TO " + role + ")"
							: " (before PostgreSQL 15 only a superuser may)");
		}
		if (!this.reload) {
			return "role " + role + " may not call pg_reload_conf() (GRANT EXECUTE ON FUNCTION pg_reload_conf() TO "
					+ role + ", in database " + this.database + ")";
		}
		return null;
	}

}
