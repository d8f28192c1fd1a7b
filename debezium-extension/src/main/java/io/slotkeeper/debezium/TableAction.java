package io.slotkeeper.debezium;

import java.time.Instant;
import java.util.List;

import io.debezium.data.Envelope.Operation;
import io.debezium.document.Array;
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
 * A signal action on one captured table: finds the table the signal names, runs the
 * action's work on it, says what it did (or why it refused, before emitting anything) in
 * the worker's log and acknowledges it in the signal table, and emits changes through the
 * connector's dispatcher at the signal's position, {@code source.table} naming the table.
 */
abstract class TableAction<P extends Partition> implements SignalAction<P> {

	private static final Logger logger = LoggerFactory.getLogger(TableAction.class);

	private final String name;

	private final EventDispatcher<P, TableId> dispatcher;

	private final RelationalDatabaseConnectorConfig config;

	private final Acknowledgements acknowledgements;

	TableAction(String name, EventDispatcher<P, TableId> dispatcher, RelationalDatabaseConnectorConfig config,
			Acknowledgements acknowledgements) {
		this.name = name;
		this.dispatcher = dispatcher;
		this.config = config;
		this.acknowledgements = acknowledgements;
	}

	@Override
	public final boolean arrived(SignalPayload<P> signal) throws InterruptedException {
		Outcome outcome;
		try {
			Table table = SignalledTable.of(signal.data, this.dispatcher);
			outcome = run(signal, table);
			logger.info("Signal '{}' ({}): emitted {} of {} for {}", signal.id, this.name, outcome.emitted(),
					outcome.asked(), table.id());
		}
		catch (Refusal ex) {
			outcome = Outcome.refused(ex.getMessage());
			logger.warn("Signal '{}' ({}) refused: {}", signal.id, this.name, ex.getMessage());
		}
		this.acknowledgements.acknowledge(signal, this.name, outcome);
		return outcome.complete();
	}

	/**
	 * The action's work on the table the signal names.
	 * @param signal the signal
	 * @param table the table
	 * @return what it emitted
	 * @throws Refusal when the signal's data or the connector's settings do not allow it,
	 * before anything is emitted
	 * @throws InterruptedException when the connector stops meanwhile
	 */
	abstract Outcome run(SignalPayload<P> signal, Table table) throws InterruptedException;

	/**
	 * The batch a signal's data holds under a name.
	 * @param signal the signal
	 * @param field the name
	 * @param most how many items it may hold
	 * @return the batch
	 * @throws Refusal when it is missing, empty or holds more
	 */
	static Array batch(SignalPayload<?> signal, String field, int most) {
		Array batch = signal.data.getArray(field);
		if (batch == null || batch.isEmpty() || batch.size() > most) {
			throw new Refusal("'" + field + "' must hold 1 to " + most + " items, it holds "
					+ ((batch != null) ? batch.size() : 0));
		}
		return batch;
	}

	/**
	 * Emits one change per row, once the connector is known to keep them.
	 * @param signal the signal
	 * @param table the table
	 * @param operation the change, {@code DELETE} (rows as old values) or {@code CREATE}
	 * (rows as new values)
	 * @param rows each row's values at the table's columns' positions
	 * @return how many were emitted of how many asked
	 * @throws InterruptedException when the connector stops meanwhile
	 */
	final Outcome emitEach(SignalPayload<P> signal, Table table, Operation operation, List<Object[]> rows)
			throws InterruptedException {
		int emitted = 0;
		for (Object[] row : rows) {
			boolean created = operation == Operation.CREATE;
			if (emit(signal, table, operation, created ? null : row, created ? row : null)) {
				emitted++;
			}
		}
		return new Outcome(emitted, rows.size(), null);
	}

	/**
	 * Refuses the signal where the connector's {@code skipped.operations} holds the
	 * operation: Debezium would drop the events.
	 * @param operation the operation
	 * @param events what the events are, in words
	 * @throws Refusal when it is skipped
	 */
	final void unlessSkipped(Operation operation, String events) {
		if (this.config.getSkippedOperations().contains(operation)) {
			throw new Refusal("the connector's skipped.operations holds '" + operation.code() + "': " + events
					+ " would be dropped");
		}
	}

	// Never updateWalPosition: the events keep the signal row's position, so the
	// connector's offsets move on only as its own streaming does.
	final boolean emit(SignalPayload<P> signal, Table table, Operation operation, Object[] oldValues,
			Object[] newValues) throws InterruptedException {
		signal.offsetContext.event(table.id(), Instant.now());
		return this.dispatcher.dispatchDataChangeEvent(signal.partition, table.id(), new SignalledChange<>(
				signal.partition, signal.offsetContext, this.config, operation, oldValues, newValues));
	}

}
