package io.slotkeeper.sessions;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.SQLInvalidAuthorizationSpecException;
import java.sql.Statement;

/**
 * Tables slot-keeper keeps in a target's database, made on first use and checked before
 * each use: a table another role made first under the same name, or one with a trigger or
 * a rule, would run that role's code with slot-keeper's rights (its REPLICATION attribute
 * among them), so it is refused, never written to.
 */
public final class OwnTables {

	/**
	 * The SQLState of a refusal: insufficient privilege, as the table is not
	 * slot-keeper's to trust.
	 */
	public static final String REFUSED = "42501";

	private static final String CHECK = "SELECT c.relkind::pg_catalog.text, pg_catalog.pg_get_userbyid(c.relowner),"
			+ " c.relowner = r.oid, pg_catalog.pg_get_userbyid(n.nspowner), n.nspowner = r.oid,"
			+ " EXISTS (SELECT 1 FROM pg_catalog.pg_trigger t WHERE t.tgrelid = c.oid AND NOT t.tgisinternal),"
			+ " EXISTS (SELECT 1 FROM pg_catalog.pg_rewrite w WHERE w.ev_class = c.oid), c.relrowsecurity"
			+ " FROM pg_catalog.pg_class c JOIN pg_catalog.pg_namespace n ON n.oid = c.relnamespace"
			+ " JOIN pg_catalog.pg_roles r ON r.rolname = CURRENT_USER WHERE n.nspname = ? AND c.relname = ?";

	private static final String MISSING = "it does not exist";

	private OwnTables() {
	}

	/**
	 * Creates a table when it is missing and checks that it is slot-keeper's own.
	 * @param connection the session
	 * @param qualifiedName {@code schema.table} or {@code table} (then in
	 * {@code public}), plain lower-case identifiers
	 * @param columns the column definitions for {@code CREATE TABLE}
	 * @param ownSchema whether the schema is slot-keeper's too (created when missing, and
	 * its owner checked), so that no other role can put another table in its place later
	 * @throws SQLException when the server refuses, or with SQLState {@value #REFUSED}
	 * and the reason when the table or its schema is not slot-keeper's to trust
	 */
	public static void create(Connection connection, String qualifiedName, String columns, boolean ownSchema)
			throws SQLException {
		String[] name = SqlIdentifiers.split(qualifiedName);
		String refusal = refusal(connection, name, ownSchema);
		if (MISSING.equals(refusal) && ownSchema) {
			// Nothing is made in a schema another role owns: it could replace or drop
			// what slot-keeper made there.
			refusal = schemaRefusal(connection, name[0]);
		}
		if (MISSING.equals(refusal)) {
			try (Statement statement = connection.createStatement()) {
				if (ownSchema) {
					statement.execute("CREATE SCHEMA IF NOT EXISTS " + SqlIdentifiers.quote(name[0]));
				}
				statement.execute("CREATE TABLE IF NOT EXISTS " + SqlIdentifiers.quoteQualified(qualifiedName) + " ("
						+ columns + ")");
			}
			refusal = refusal(connection, name, ownSchema);
		}
		if (refusal != null) {
			throw new SQLInvalidAuthorizationSpecException(name[0] + "." + name[1] + " is not slot-keeper's own: "
					+ refusal + "; it is never written to (drop it, or let slot-keeper's role create it)", REFUSED);
		}
	}

	/**
	 * Whether a table slot-keeper makes exists, and is slot-keeper's own; checked before
	 * reading it, as a view or a row-level security policy another role put in its place
	 * would run that role's code.
	 * @param connection the session
	 * @param qualifiedName {@code schema.table}, plain lower-case identifiers
	 * @param ownSchema whether the schema must be slot-keeper's too
	 * @return whether it exists
	 * @throws SQLException when the server refuses, or with SQLState {@value #REFUSED}
	 * and the reason when it exists but is not slot-keeper's to trust
	 */
	public static boolean exists(Connection connection, String qualifiedName, boolean ownSchema) throws SQLException {
		String[] name = SqlIdentifiers.split(qualifiedName);
		String refusal = refusal(connection, name, ownSchema);
		if (MISSING.equals(refusal)) {
			return false;
		}
		if (refusal != null) {
			throw new SQLInvalidAuthorizationSpecException(
					name[0] + "." + name[1] + " is not slot-keeper's own: " + refusal + "; it is never read", REFUSED);
		}
		return true;
	}

	// MISSING when the schema does not exist or is the role's own; why not otherwise.
	private static String schemaRefusal(Connection connection, String schema) throws SQLException {
		try (PreparedStatement statement = connection.prepareStatement("SELECT pg_catalog.pg_get_userbyid(n.nspowner),"
				+ " n.nspowner = r.oid FROM pg_catalog.pg_namespace n JOIN pg_catalog.pg_roles r"
				+ " ON r.rolname = CURRENT_USER WHERE n.nspname = ?")) {
			statement.setString(1, schema);
			try (ResultSet result = statement.executeQuery()) {
				if (result.next() && !result.getBoolean(2)) {
					return "its schema is owned by role " + result.getString(1) + ", who may replace the table";
				}
				return MISSING;
			}
		}
	}

	private static String refusal(Connection connection, String[] name, boolean ownSchema) throws SQLException {
		try (PreparedStatement statement = connection.prepareStatement(CHECK)) {
			statement.setString(1, name[0]);
			statement.setString(2, name[1]);
			try (ResultSet result = statement.executeQuery()) {
				if (!result.next()) {
					return MISSING;
				}
				if (!"r".equals(result.getString(1))) {
					return "it is not a plain table (relkind " + result.getString(1) + ")";
				}
				if (!result.getBoolean(3)) {
					return "it is owned by role " + result.getString(2) + ", not by the role slot-keeper logs in as";
				}
				if (ownSchema && !result.getBoolean(5)) {
					return "its schema is owned by role " + result.getString(4) + ", who may replace the table";
				}
				if (result.getBoolean(6)) {
					return "it has a trigger";
				}
				if (result.getBoolean(7)) {
					return "it has a rule";
				}
				if (result.getBoolean(8)) {
					return "it has row-level security";
				}
				return null;
			}
		}
	}

}
