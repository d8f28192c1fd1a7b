package io.slotkeeper.debezium;

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
 * {@value #NAME}: a create event for each row of a batch inserted into an outbox table
 * while the connector's slot was lost, the events its {@code EventRouter} would have
 * routed. The signal's data: {@code data-collection} (the table), {@code columns} (the
 * rows' columns) and {@code rows} (at most {@value #MOST_ROWS}, each an array of the
 * columns' values as PostgreSQL's text output, {@code null} for SQL NULL). Each row is
 * read as the connector reads a streamed one ({@link RowValues}); a column the signal
 * does not name is null. Refused whole when the connector skips creates, the table is
 * not captured, a column is not the table's or of a type it does not read, a value is not
 * of its type, a row has another length, or the batch is empty or too large.
 */
final class GapEvents<P extends Partition> extends TableAction<P> {

	static final String NAME = "slotkeeper-gap-events";

	// A signal runs on the streaming thread, which waits for it at most 10 s.
	static final int MOST_ROWS = 500;

	GapEvents(EventDispatcher<P, TableId> dispatcher, RelationalDatabaseConnectorConfig config,
			Acknowledgements acknowledgements) {
		super(NAME, dispatcher, config, acknowledgements);
	}

	@Override
	Outcome run(SignalPayload<P> signal, Table table) throws InterruptedException {
		unlessSkipped(Operation.CREATE, "create events");
		return emitEach(signal, table, Operation.CREATE, rows(signal, table));
	}

	// Every row read before the first is emitted: a batch is emitted whole or not at all.
	private static List<Object[]> rows(SignalPayload<?> signal, Table table) {
		Array named = signal.data.getArray("columns");
		List<Column> columns = new ArrayList<>();
		for (Array.Entry entry : (named != null) ? named : Array.create()) {
			Column column = entry.getValue().isString() ? table.columnWithName(entry.getValue().asString()) : null;
			if (column == null) {
				throw new Refusal("'columns' " + entry.getIndex() + " is not a column of " + table.id());
			}
			columns.add(column);
		}
		if (columns.isEmpty()) {
			throw new Refusal("'columns' names no column");
		}
		Array rows = batch(signal, "rows", MOST_ROWS);
		List<Object[]> read = new ArrayList<>(rows.size());
		for (Array.Entry entry : rows) {
			Array row = entry.getValue().isArray() ? entry.getValue().asArray() : null;
			if (row == null || row.size() != columns.size()) {
				throw new Refusal("row " + entry.getIndex() + " does not have " + columns.size() + " values");
			}
			Object[] values = new Object[table.columns().size()];
			for (int index = 0; index < columns.size(); index++) {
				Value value = row.get(index);
				if (value != null && !value.isNull() && !value.isString()) {
					throw new Refusal("row " + entry.getIndex() + ": a value is neither text nor null");
				}
				values[columns.get(index).position() - 1] = RowValues.of(columns.get(index),
						(value != null && value.isString()) ? value.asString() : null);
			}
			read.add(values);
		}
		return read;
	}

}
