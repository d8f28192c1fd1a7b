package io.slotkeeper.gap;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

/**
 * The primary keys of a journal's tables whose replica identity does not name their key,
 * read from the catalog through the session that decodes, once per table.
 */
public final class PrimaryKeys implements Function<PgOutputMessage.Relation, List<String>> {

	private final Map<Integer, List<String>> known = new HashMap<>();

	private Connection connection;

	/**
	 * Reads the keys through this session from now on.
	 * @param connection the session that decodes
	 */
	public void use(Connection connection) {
		this.connection = connection;
	}

	@Override
	public List<String> apply(PgOutputMessage.Relation relation) {
		return this.known.computeIfAbsent(relation.oid(), (oid) -> {
			try {
				return SlotCopies.primaryKey(this.connection, oid);
			}
			catch (SQLException ex) {
				throw new IllegalStateException(
						"the primary key of " + relation.qualifiedName() + " could not be read: " + ex.getMessage(),
						ex);
			}
		});
	}

}
