package io.slotkeeper.gap;

import java.util.List;

/**
 * One message of pgoutput's logical replication protocol, version 1, as far as the gap
 * journal reads it (PostgreSQL's "Logical Replication Message Formats"). Messages the
 * journal has no use for (origin, type) are {@link Skipped}.
 */
public sealed interface PgOutputMessage {

	/**
	 * A transaction begins.
	 *
	 * @param finalLsn the LSN of its commit record
	 * @param xid its transaction id
	 */
	record Begin(long finalLsn, int xid) implements PgOutputMessage {
	}

	/**
	 * A transaction commits.
	 *
	 * @param commitLsn the LSN of its commit record
	 * @param endLsn the LSN just past it
	 */
	record Commit(long commitLsn, long endLsn) implements PgOutputMessage {
	}

	/**
	 * A table's layout, sent before its first change in every decoding call.
	 *
	 * @param oid the table's oid
	 * @param schema its schema ({@code pg_catalog} is sent empty)
	 * @param name its name
	 * @param replicaIdentity {@code d} default, {@code n} nothing, {@code f} full,
	 * {@code i} index
	 * @param columns its published columns, in order
	 */
	record Relation(int oid, String schema, String name, char replicaIdentity,
			List<Column> columns) implements PgOutputMessage {

		/**
		 * The table's qualified name, as Debezium names a data collection.
		 * @return {@code schema.name}
		 */
		public String qualifiedName() {
			return (this.schema.isEmpty() ? "pg_catalog" : this.schema) + "." + this.name;
		}

	}

	/**
	 * A published column.
	 *
	 * @param name its name
	 * @param key whether it is part of the replica identity
	 * @param typeOid its type's oid
	 */
	record Column(String name, boolean key, int typeOid) {
	}

	/**
	 * A row inserted.
	 *
	 * @param relation the table's oid
	 * @param row the new row
	 */
	record Insert(int relation, List<Value> row) implements PgOutputMessage {
	}

	/**
	 * A row updated.
	 *
	 * @param relation the table's oid
	 * @param oldKind {@code K} when the old key is sent (it changed), {@code O} for the
	 * whole old row (replica identity full), {@code 0} when nothing old is sent
	 * @param old the old key or row, {@code null} when not sent
	 * @param row the new row
	 */
	record Update(int relation, char oldKind, List<Value> old, List<Value> row) implements PgOutputMessage {
	}

	/**
	 * A row deleted.
	 *
	 * @param relation the table's oid
	 * @param oldKind {@code K} for the key, {@code O} for the whole old row
	 * @param old the key (other columns null) or the whole old row
	 */
	record Delete(int relation, char oldKind, List<Value> old) implements PgOutputMessage {
	}

	/**
	 * Tables truncated.
	 *
	 * @param relations the tables' oids
	 */
	record Truncate(List<Integer> relations) implements PgOutputMessage {
	}

	/**
	 * A message the journal does not use.
	 *
	 * @param type its type byte
	 */
	record Skipped(char type) implements PgOutputMessage {
	}

	/**
	 * One column's value in a row.
	 *
	 * @param kind {@code n} null, {@code u} unchanged TOASTed value (not sent), {@code t}
	 * text
	 * @param text the value in PostgreSQL's text form, {@code null} unless {@code t}
	 */
	record Value(char kind, String text) {

		static final Value NULL = new Value('n', null);

		static final Value UNCHANGED = new Value('u', null);

	}

}
