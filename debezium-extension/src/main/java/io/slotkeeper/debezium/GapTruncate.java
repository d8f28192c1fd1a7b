package io.slotkeeper.debezium;

import java.util.Optional;

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
 * the table's whole re-read after it. The signal's data: {@code data-collection}. Debezium
 * drops it where {@code skipped.operations} holds {@code t} (its default), and the action
 * then reports it not emitted.
 */
final class GapTruncate<P extends Partition> extends TableAction<P> {

	static final String NAME = "slotkeeper-gap-truncate";

	GapTruncate(EventDispatcher<P, TableId> dispatcher, RelationalDatabaseConnectorConfig config) {
		super(NAME, dispatcher, config);
	}

	@Override
	public boolean arrived(SignalPayload<P> signal) throws InterruptedException {
		Optional<Table> table = table(signal);
		if (table.isEmpty()) {
			return false;
		}
		if (config().getSkippedOperations().contains(Operation.TRUNCATE)) {
			refuse(signal, "not emitted, the connector's skipped.operations holds 't'");
			return false;
		}
		boolean emitted = emit(signal, table.get(), Operation.TRUNCATE, null);
		said(signal, "truncate of " + table.get().id() + (emitted ? " emitted" : " not emitted"));
		return emitted;
	}

}
