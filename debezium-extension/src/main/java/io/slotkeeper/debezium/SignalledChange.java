package io.slotkeeper.debezium;

import io.debezium.data.Envelope.Operation;
import io.debezium.pipeline.spi.OffsetContext;
import io.debezium.pipeline.spi.Partition;
import io.debezium.relational.RelationalChangeRecordEmitter;
import io.debezium.relational.RelationalDatabaseConnectorConfig;
import io.debezium.relational.TableSchema;
import io.debezium.util.Clock;

import org.apache.kafka.connect.data.Struct;

/**
 * One change a signal asks for, shaped as the connector's own: a delete whose old values
 * are the key columns at their positions and nulls elsewhere (what PostgreSQL sends for a
 * delete under {@code REPLICA IDENTITY DEFAULT}), a create whose new values are a whole
 * row as the connector decodes it, or a truncate (no key, as the PostgreSQL connector
 * emits one).
 */
final class SignalledChange<P extends Partition> extends RelationalChangeRecordEmitter<P> {

	private final Operation operation;

	private final Object[] oldValues;

	private final Object[] newValues;

	SignalledChange(P partition, OffsetContext offset, RelationalDatabaseConnectorConfig config, Operation operation,
			Object[] oldValues, Object[] newValues) {
		super(partition, offset, Clock.SYSTEM, config);
		this.operation = operation;
		this.oldValues = oldValues;
		this.newValues = newValues;
	}

	@Override
	public Operation getOperation() {
		return this.operation;
	}

	@Override
	protected Object[] getOldColumnValues() {
		return this.oldValues;
	}

	@Override
	protected Object[] getNewColumnValues() {
		return this.newValues;
	}

	@Override
	protected void emitTruncateRecord(Receiver<P> receiver, TableSchema schema) throws InterruptedException {
		Struct envelope = schema.getEnvelopeSchema()
			.truncate(getOffset().getSourceInfo(), getClock().currentTimeAsInstant());
		receiver.changeRecord(getPartition(), schema, Operation.TRUNCATE, null, envelope, getOffset(), null);
	}

}
