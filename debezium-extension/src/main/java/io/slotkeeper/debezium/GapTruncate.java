package io.slotkeeper.debezium;

import java.time.Instant;
import java.util.Optional;

import io.debezium.data.Envelope.Operation;
import io.debezium.pipeline.EventDispatcher;
import io.debezium.pipeline.signal.SignalPayload;
import io.debezium.pipeline.signal.actions.SignalAction;
import io.debezium.pipeline.spi.Partition;
import io.debezium.relational.RelationalDatabaseConnectorConfig;
import io.debezium.relational.Table;
import io.debezium.relational.TableId;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * {@value #NAME}: a truncate event ({@code op: t}) for a table the gap saw truncated,
 * emitted as the PostgreSQL connector emits a real {@code TRUNCATE}; slot-keeper asks for
 * the table's whole re-read after it. The signal's data: {@code data-collection}. Debezium
 * drops it where {@code skipped.operations} holds {@code t} (its default), and the action
 * then reports it not emitted.
 */
final class GapTruncate<P extends Partition> implements SignalAction<P> {

	static final String NAME = "slotkeeper-gap-truncate";

	private static final Logger logger = LoggerFactory.getLogger(GapTruncate.class);

	private final EventDispatcher<P, TableId> dispatcher;

	private final RelationalDatabaseConnectorConfig config;

	GapTruncate(EventDispatcher<P, TableId> dispatcher, RelationalDatabaseConnectorConfig config) {
		this.dispatcher = dispatcher;
		this.config = config;
	}

	@Override
	public boolean arrived(SignalPayload<P> signal) throws InterruptedException {
		Optional<Table> table = SignalledTable.of(signal.data, this.dispatcher,
				(why) -> logger.warn("Signal '{}' ({}) refused: {}", signal.id, NAME, why));
		if (table.isEmpty()) {
			return false;
		}
		if (this.config.getSkippedOperations().contains(Operation.TRUNCATE)) {
			logger.warn("Signal '{}' ({}): not emitted, the connector's skipped.operations holds 't'", signal.id,
					NAME);
			return false;
		}
		signal.offsetContext.event(table.get().id(), Instant.now());
		boolean emitted = this.dispatcher.dispatchDataChangeEvent(signal.partition, table.get().id(),
				new SignalledChange<>(signal.partition, signal.offsetContext, this.config, Operation.TRUNCATE,
						null));
		logger.info("Signal '{}' ({}): truncate of {} {}", signal.id, NAME, table.get().id(),
				emitted ? "emitted" : "not emitted");
		return emitted;
	}

}
