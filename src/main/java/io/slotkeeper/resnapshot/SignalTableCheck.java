package io.slotkeeper.resnapshot;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * Whether Debezium's signal table is one slot-keeper may insert into. The table is the
 * application's, so whatever code it would run on an insert would run as slot-keeper's
 * role; the check is an allow-list of what such a table is: a plain heap table of exactly
 * Debezium's three signal columns, in Debezium's order, of built-in text types, with no
 * default, generated or identity column, no domain, no constraint but NOT NULL, primary
 * key and unique (their indexes plain B-trees of built-in operator classes), no trigger,
 * rule, row-level security, inheritance or partitioning. Anything not on the list is
 * refused with what it is.
 */
final class SignalTableCheck {

	/** Debezium reads a signal's fields by position: id, type, data. */
	static final List<String> COLUMNS = List.of("id", "type", "data");

	private static final Set<String> TEXT_TYPES = Set.of("text", "character varying", "character");

	private static final String TABLE = "SELECT c.relkind, am.amname, c.relrowsecurity OR c.relforcerowsecurity,"
			+ " c.relhasrules, c.relispartition,"
			+ " EXISTS (SELECT FROM pg_catalog.pg_inherits h WHERE h.inhrelid = c.oid OR h.inhparent = c.oid),"
			// Foreign keys that point at the table give it internal triggers of
			// PostgreSQL's own; none fires on insert.
			+ " EXISTS (SELECT FROM pg_catalog.pg_trigger g JOIN pg_catalog.pg_proc f ON f.oid = g.tgfoid"
			+ " WHERE g.tgrelid = c.oid AND NOT (g.tgisinternal"
			+ " AND f.pronamespace = 'pg_catalog'::pg_catalog.regnamespace)),"
			+ " (SELECT pg_catalog.string_agg(DISTINCT k.contype::text, '') FROM pg_catalog.pg_constraint k"
			// PostgreSQL 18 keeps NOT NULL as constraints of type n.
			+ " WHERE k.conrelid = c.oid AND k.contype NOT IN ('p', 'u', 'n')),"
			+ " EXISTS (SELECT FROM pg_catalog.pg_index i JOIN pg_catalog.pg_class ic ON ic.oid = i.indexrelid"
			+ " JOIN pg_catalog.pg_am ia ON ia.oid = ic.relam WHERE i.indrelid = c.oid"
			+ " AND (ia.amname <> 'btree' OR i.indexprs IS NOT NULL OR i.indpred IS NOT NULL"
			+ " OR EXISTS (SELECT FROM pg_catalog.pg_opclass o WHERE o.oid = ANY (i.indclass::pg_catalog.oid[])"
			+ " AND o.opcnamespace <> 'pg_catalog'::pg_catalog.regnamespace)))"
			+ " FROM pg_catalog.pg_class c LEFT JOIN pg_catalog.pg_am am ON am.oid = c.relam"
			+ " WHERE c.oid = pg_catalog.to_regclass(?)";

	// A domain or a type of the owner's own is not named by format_type as a built-in
	// one.
	private static final String COLUMNS_SQL = "SELECT a.attname, pg_catalog.format_type(t.oid, NULL),"
			+ " t.typnamespace = 'pg_catalog'::pg_catalog.regnamespace AND t.typtype = 'b',"
			+ " a.atthasdef, a.attgenerated <> '', a.attidentity <> ''"
			+ " FROM pg_catalog.pg_attribute a JOIN pg_catalog.pg_type t ON t.oid = a.atttypid"
			+ " WHERE a.attrelid = pg_catalog.to_regclass(?) AND a.attnum > 0 AND NOT a.attisdropped ORDER BY a.attnum";

	private SignalTableCheck() {
	}

	/**
	 * What keeps slot-keeper from inserting into the table, or {@code null} when nothing
	 * does.
	 */
	static String refusal(Connection connection, String table) throws SQLException {
		Shape shape;
		try (PreparedStatement read = connection.prepareStatement(TABLE)) {
			read.setString(1, table);
			try (ResultSet row = read.executeQuery()) {
				if (!row.next()) {
					return "does not exist";
				}
				shape = new Shape(row.getString(1), row.getString(2), row.getBoolean(3), row.getBoolean(4),
						row.getBoolean(5), row.getBoolean(6), row.getBoolean(7), row.getString(8), row.getBoolean(9));
			}
		}
		List<Column> columns = new ArrayList<>();
		try (PreparedStatement read = connection.prepareStatement(COLUMNS_SQL)) {
			read.setString(1, table);
			try (ResultSet row = read.executeQuery()) {
				while (row.next()) {
					columns.add(new Column(row.getString(1), row.getString(2), row.getBoolean(3), row.getBoolean(4),
							row.getBoolean(5), row.getBoolean(6)));
				}
			}
		}
		return judge(shape, columns);
	}

	/** The first thing of the table that is not on the allow-list, or {@code null}. */
	static String judge(Shape shape, List<Column> columns) {
		String table = shape.refusal();
		if (table != null) {
			return table;
		}
		List<String> names = columns.stream().map(Column::name).toList();
		if (!names.equals(COLUMNS)) {
			return "has the columns " + String.join(", ", names) + " where Debezium's signal has exactly "
					+ String.join(", ", COLUMNS) + ", in that order";
		}
		return columns.stream().map(Column::refusal).filter((why) -> why != null).findFirst().orElse(null);
	}

	/** What the catalog says of the table itself. */
	record Shape(String kind, String accessMethod, boolean rowSecurity, boolean rules, boolean partition,
			boolean inheritance, boolean triggers, String otherConstraints, boolean unusualIndex) {

		String refusal() {
			if (!"r".equals(this.kind)) {
				return "is not a plain table (relkind " + this.kind + ")";
			}
			if (!"heap".equals(this.accessMethod)) {
				return "uses the table access method " + this.accessMethod + ", not heap";
			}
			if (this.partition || this.inheritance) {
				return "is part of an inheritance or partition tree";
			}
			if (this.rowSecurity) {
				return "has row-level security";
			}
			if (this.rules) {
				return "has a rule";
			}
			if (this.triggers) {
				return "has a trigger";
			}
			if (this.otherConstraints != null) {
				return "has a constraint other than NOT NULL, primary key or unique (types " + this.otherConstraints
						+ ": a check, foreign-key, exclusion or trigger constraint)";
			}
			if (this.unusualIndex) {
				return "has an index that is not a plain B-tree of built-in operator classes on its columns"
						+ " (an index on an expression, a partial index or an operator class of its own)";
			}
			return null;
		}

	}

	/** One column as the catalog has it. */
	record Column(String name, String type, boolean builtIn, boolean hasDefault, boolean generated, boolean identity) {

		String refusal() {
			if (!this.builtIn || !TEXT_TYPES.contains(this.type)) {
				return "has the column " + this.name + " of type " + this.type
						+ ", not a built-in text type (text, character varying, character)";
			}
			if (this.generated) {
				return "has the generated column " + this.name;
			}
			if (this.identity) {
				return "has the identity column " + this.name;
			}
			if (this.hasDefault) {
				return "has a default on the column " + this.name;
			}
			return null;
		}

	}

}
