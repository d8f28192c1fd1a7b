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
 * A signal action on one captured table: finds the table the signal names, refuses with
 * a warning that says why, and emits a change of it through the connector's dispatcher
 * at the signal's position, {@code source.table} naming the table.
 */
abstract class TableAction<P extends Partition> implements SignalAction<P> {

	private static final Logger logger = LoggerFactory.getLogger(TableAction.class);

	private final String name;

	private final EventDispatcher<P, TableId> dispatcher;

	private final RelationalDatabaseConnectorConfig config;

	TableAction(String name, EventDispatcher<P, TableId> dispatcher,
			RelationalDatabaseConnectorConfig config) {
		this.name = name;
		this.dispatcher = dispatcher;
		this.config = config;
	}

	final RelationalDatabaseConnectorConfig config() {
		return this.config;
	}

	final Optional<Table> table(SignalPayload<P> signal) {
		return SignalledTable.of(signal.data, this.dispatcher, (why) -> refuse(signal, why));
	}

	final void refuse(SignalPayload<P> signal, String why) {
		logger.warn("Signal '{}' ({}) refused: {}", signal.id, this.name, why);
	}

	final void said(SignalPayload<P> signal, String what) {
		logger.info("Signal '{}' ({}): {}", signal.id, this.name, what);
	}

	// Never updateWalPosition: the events keep the signal row's position, so the
	// connector's offsets move on only as its own streaming does.
	final boolean emit(SignalPayload<P> signal, Table table, Operation operation, Object[] oldValues)
			throws InterruptedException {
		signal.offsetContext.event(table.id(), Instant.now());
		return this.dispatcher.dispatchDataChangeEvent(signal.partition, table.id(),
				new SignalledChange<>(signal.partition, signal.offsetContext, this.config, operation, oldValues));
	}

}
