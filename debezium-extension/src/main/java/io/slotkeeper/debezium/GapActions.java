package io.slotkeeper.debezium;

import java.util.Map;

import io.debezium.config.CommonConnectorConfig;
import io.debezium.pipeline.ChangeEventSourceCoordinator;
import io.debezium.pipeline.EventDispatcher;
import io.debezium.pipeline.signal.actions.SignalAction;
import io.debezium.pipeline.signal.actions.SignalActionProvider;
import io.debezium.pipeline.spi.Partition;
import io.debezium.relational.RelationalDatabaseConnectorConfig;
import io.debezium.relational.TableId;
import io.debezium.spi.schema.DataCollectionId;

/**
 * slot-keeper's signal actions, found by Debezium through
 * {@code META-INF/services/io.debezium.pipeline.signal.actions.SignalActionProvider} when
 * a connector's streaming starts: {@value GapDeletes#NAME} (deletes for keys deleted
 * while the connector's slot was lost), {@value GapTruncate#NAME} (a truncate the gap
 * held) and {@value GapEvents#NAME} (rows inserted into an outbox table: the events the
 * consumer missed). Each emits through the connector's own dispatcher, so the events are
 * named, enveloped, transformed and converted as the connector's own, tombstones
 * included, and acknowledges what it did in the signal table ({@link Acknowledgements});
 * {@value Acknowledgements#TYPE} takes those acknowledgements when they stream back.
 * Offered to relational connectors only.
 */
public final class GapActions implements SignalActionProvider {

	@Override
	@SuppressWarnings("unchecked")
	public <P extends Partition> Map<String, SignalAction<P>> createActions(
			EventDispatcher<P, ? extends DataCollectionId> dispatcher,
			ChangeEventSourceCoordinator<P, ?> changeEventSourceCoordinator, CommonConnectorConfig connectorConfig) {
		if (!(connectorConfig instanceof RelationalDatabaseConnectorConfig relational)) {
			return Map.of();
		}
		EventDispatcher<P, TableId> tables = (EventDispatcher<P, TableId>) dispatcher;
		Acknowledgements acknowledgements = new Acknowledgements(relational);
		return Map.of(GapDeletes.NAME, new GapDeletes<>(tables, relational, acknowledgements), GapTruncate.NAME,
				new GapTruncate<>(tables, relational, acknowledgements), GapEvents.NAME,
				new GapEvents<>(tables, relational, acknowledgements), Acknowledgements.TYPE, new Acknowledged<>());
	}

}
