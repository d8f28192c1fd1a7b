package io.slotkeeper.debezium;

import io.debezium.data.Envelope.Operation;
import io.debezium.pipeline.EventDispatcher;
import io.debezium.pipeline.signal.SignalPayload;
import io.debezium.pipeline.spi.Partition;
import io.debezium.relational.RelationalDatabaseConnectorConfig;
import io.debezium.relational.Table;
import io.debezium.relational.TableId;

/**
 * {@value #NAME}: a truncate event ({@code op: t}) for a table the gap saw truncated,
 * emitted as the PostgreSQL connector emits a real {@code TRUNCATE}; slot-keeper asks for
 * the table's whole re-read with it. The signal's data: {@code data-collection}. Refused
 * where the connector's {@code skipped.operations} holds {@code t} (its default): Debezium
 * would drop the event.
 */
final class GapTruncate<P extends Partition> extends TableAction<P> {

	static final String NAME = "slotkeeper-gap-truncate";

	GapTruncate(EventDispatcher<P, TableId> dispatcher, RelationalDatabaseConnectorConfig config,
			Acknowledgements acknowledgements) {
		super(NAME, dispatcher, config, acknowledgements);
	}

	@Override
	Outcome run(SignalPayload<P> signal, Table table) throws InterruptedException {
		unlessSkipped(Operation.TRUNCATE, "a truncate event");
		return new Outcome(emit(signal, table, Operation.TRUNCATE, null, null) ? 1 : 0, 1, null);
	}

}
