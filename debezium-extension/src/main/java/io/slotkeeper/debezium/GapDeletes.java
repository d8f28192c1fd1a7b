package io.slotkeeper.debezium;

import java.sql.Types;
import java.util.ArrayList;
import java.util.List;

import io.debezium.data.Envelope.Operation;
import io.debezium.document.Array;
import io.debezium.document.Value;
import io.debezium.pipeline.EventDispatcher;
import io.debezium.pipeline.signal.SignalPayload;
import io.debezium.pipeline.spi.Partition;
import io.debezium.relational.Column;
import io.debezium.relational.RelationalDatabaseConnectorConfig;
import io.debezium.relational.Table;
import io.debezium.relational.TableId;

/**
 * {@value #NAME}: a delete event for each key of a batch, for rows deleted while the
 * connector's slot was lost. The signal's data: {@code data-collection} (the table),
 * {@code key-columns} (its primary key's columns, in order) and {@code keys} (at most
 * {@value #MOST_KEYS} keys, each an array of the key's values as text or numbers). Each
 * delete carries the key columns and nulls elsewhere, as a real delete under
 * {@code REPLICA IDENTITY DEFAULT} does; Debezium adds its tombstone when
 * {@code tombstones.on.delete} is on. Refused whole, with a warning that says why, when
 * the connector skips deletes, the table is not captured, the key columns are not its primary key, a key has another
 * length, a value is not of a key type it knows (integers, text, uuid), or the batch is
 * empty or too large.
 */
final class GapDeletes<P extends Partition> extends TableAction<P> {

	static final String NAME = "slotkeeper-gap-deletes";

	// A signal runs on the streaming thread, which waits for it at most 10 s: a batch
	// stays well within it.
	static final int MOST_KEYS = 1000;

	GapDeletes(EventDispatcher<P, TableId> dispatcher, RelationalDatabaseConnectorConfig config,
			Acknowledgements acknowledgements) {
		super(NAME, dispatcher, config, acknowledgements);
	}

	@Override
	Outcome run(SignalPayload<P> signal, Table table) throws InterruptedException {
		unlessSkipped(Operation.DELETE, "delete events");
		return emitEach(signal, table, Operation.DELETE, rows(signal, table));
	}

	// Every key checked before the first is emitted: a batch is emitted whole or not at
	// all.
	private static List<Object[]> rows(SignalPayload<?> signal, Table table) {
		Array columns = signal.data.getArray("key-columns");
		List<String> named = new ArrayList<>();
		for (Array.Entry entry : (columns != null) ? columns : Array.create()) {
			named.add(entry.getValue().isString() ? entry.getValue().asString() : null);
		}
		if (!named.equals(table.primaryKeyColumnNames())) {
			throw new Refusal("'key-columns' " + named + " are not the primary key " + table.primaryKeyColumnNames()
					+ " of " + table.id());
		}
		Array keys = batch(signal, "keys", MOST_KEYS);
		List<Column> keyColumns = table.primaryKeyColumns();
		List<Object[]> rows = new ArrayList<>(keys.size());
		for (Array.Entry entry : keys) {
			Array key = entry.getValue().isArray() ? entry.getValue().asArray() : null;
			if (key == null || key.size() != keyColumns.size()) {
				throw new Refusal("key " + entry.getIndex() + " does not have " + keyColumns.size() + " values");
			}
			Object[] old = new Object[table.columns().size()];
			for (int index = 0; index < keyColumns.size(); index++) {
				Column column = keyColumns.get(index);
				Object value = value(column, key.get(index));
				if (value == null) {
					throw new Refusal("key " + entry.getIndex() + ": " + column.name() + " is not a " + column.typeName());
				}
				old[column.position() - 1] = value;
			}
			rows.add(old);
		}
		return rows;
	}

	// As the PostgreSQL connector decodes the key's type from pgoutput: integers as their
	// Java width, text and uuid as text.
	private static Object value(Column column, Value value) {
		if (value == null || !(value.isString() || value.isNumber())) {
			return null;
		}
		String text = value.isString() ? value.asString() : value.asNumber().toString();
		try {
			return switch (column.jdbcType()) {
				case Types.BIGINT -> Long.valueOf(text);
				case Types.INTEGER -> Integer.valueOf(text);
				case Types.SMALLINT -> Short.valueOf(text);
				case Types.VARCHAR, Types.CHAR, Types.LONGVARCHAR, Types.NVARCHAR -> text;
				case Types.OTHER -> "uuid".equals(column.typeName()) ? java.util.UUID.fromString(text).toString() : null;
				default -> null;
			};
		}
		catch (IllegalArgumentException ex) {
			return null;
		}
	}

}
