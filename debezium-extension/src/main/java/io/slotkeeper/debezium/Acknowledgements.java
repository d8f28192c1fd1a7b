package io.slotkeeper.debezium;

import java.io.IOException;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.util.List;

import io.debezium.connector.postgresql.connection.PostgresConnection;
import io.debezium.document.Document;
import io.debezium.document.DocumentWriter;
import io.debezium.pipeline.signal.SignalPayload;
import io.debezium.relational.RelationalDatabaseConnectorConfig;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What each of slot-keeper's signals did, told back where slot-keeper reads it: a row of
 * type {@value #TYPE} in the connector's signal table, id {@code ack:} and the signal's
 * id, data {@code {"signal", "action", "emitted", "asked", "refused"}}. Written on a
 * session of the connector's own settings, after the action ran; a signal that is never
 * acknowledged is never taken by slot-keeper as done. Only a table the connector's
 * {@code signal.data.collection} names is ever written to.
 */
final class Acknowledgements {

	static final String TYPE = "slotkeeper-ack";

	private static final Logger logger = LoggerFactory.getLogger(Acknowledgements.class);

	private final RelationalDatabaseConnectorConfig config;

	Acknowledgements(RelationalDatabaseConnectorConfig config) {
		this.config = config;
	}

	/**
	 * Tells what a signal did. Never throws: a failure is logged, and slot-keeper then
	 * reports the signal as not acknowledged.
	 * @param signal the signal
	 * @param action the action's name
	 * @param outcome what it did
	 */
	void acknowledge(SignalPayload<?> signal, String action, Outcome outcome) {
		String table = signalTable();
		if (table == null) {
			logger.warn("Signal '{}' ({}) not acknowledged: the connector names no single signal table", signal.id,
					action);
			return;
		}
		Document data = Document.create("signal", signal.id, "action", action, "emitted", outcome.emitted(), "asked",
				outcome.asked());
		if (outcome.refused() != null) {
			data.setString("refused", outcome.refused());
		}
		try (PostgresConnection session = new PostgresConnection(this.config.getJdbcConfig(),
				"slot-keeper acknowledgement")) {
			Connection connection = session.connection();
			connection.setAutoCommit(true);
			// Do nothing on a second run of the signal (its connector restarted before
			// its offsets were committed): the first acknowledgement stands.
			try (PreparedStatement insert = connection.prepareStatement(
					"INSERT INTO " + table + " (id, type, data) VALUES (?, ?, ?) ON CONFLICT DO NOTHING")) {
				insert.setString(1, "ack:" + signal.id);
				insert.setString(2, TYPE);
				insert.setString(3, DocumentWriter.defaultWriter().write(data));
				insert.executeUpdate();
			}
		}
		catch (SQLException | IOException | RuntimeException ex) {
			logger.warn("Signal '{}' ({}) not acknowledged in {}: {}", signal.id, action, table, ex.getMessage());
		}
	}

	// The connector's own signal table, its identifiers quoted: schema.table, or the
	// last two parts of a longer name.
	private String signalTable() {
		List<String> tables = this.config.getSignalingDataCollectionIds();
		if (tables == null || tables.size() != 1) {
			return null;
		}
		String[] parts = tables.get(0).split("\\.");
		if (parts.length < 2) {
			return null;
		}
		return quoted(parts[parts.length - 2]) + "." + quoted(parts[parts.length - 1]);
	}

	private static String quoted(String identifier) {
		return "\"" + identifier.replace("\"", "\"\"") + "\"";
	}

}
