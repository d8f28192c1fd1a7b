package io.slotkeeper.debezium;

import io.debezium.document.Document;
import io.debezium.pipeline.EventDispatcher;
import io.debezium.pipeline.spi.Partition;
import io.debezium.relational.RelationalDatabaseSchema;
import io.debezium.relational.Table;
import io.debezium.relational.TableId;

/**
 * The table a signal names in {@code data-collection} ({@code schema.table}), when the
 * connector captures it: a signal for a table it does not capture, or one named another
 * way, is refused, never emitted to a topic of its own.
 */
final class SignalledTable {

	static final String COLLECTION = "data-collection";

	private SignalledTable() {
	}

	/**
	 * The captured table a signal names.
	 * @param data the signal's data
	 * @param dispatcher the connector's dispatcher, whose schema knows the captured tables
	 * @return the table
	 * @throws Refusal when the signal names none the connector captures
	 */
	static <P extends Partition> Table of(Document data, EventDispatcher<P, TableId> dispatcher) {
		String name = data.getString(COLLECTION);
		String[] parts = (name != null) ? name.split("\\.", -1) : new String[0];
		if (parts.length != 2 || parts[0].isEmpty() || parts[1].isEmpty()) {
			throw new Refusal("'" + COLLECTION + "' is not a schema-qualified table name: " + name);
		}
		TableId id = new TableId(null, parts[0], parts[1]);
		if (!(dispatcher.getSchema() instanceof RelationalDatabaseSchema schema) || schema.tableFor(id) == null
				|| schema.schemaFor(id) == null) {
			throw new Refusal("the connector does not capture " + name);
		}
		return schema.tableFor(id);
	}

}
