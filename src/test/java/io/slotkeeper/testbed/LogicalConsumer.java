package io.slotkeeper.testbed;

import java.nio.ByteBuffer;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.util.Properties;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

import org.postgresql.PGConnection;
import org.postgresql.PGProperty;
import org.postgresql.replication.LogSequenceNumber;
import org.postgresql.replication.PGReplicationStream;
import org.postgresql.replication.fluent.logical.ChainedLogicalStreamBuilder;

/**
 * A CDC consumer as Debezium runs one: a PgJDBC replication stream on pgoutput that
 * confirms exactly what it received, with automatic flush off so that keepalives alone
 * never move the slot.
 */
public final class LogicalConsumer implements AutoCloseable {

	private final Connection connection;

	private final PGReplicationStream stream;

	private final Thread reader;

	private final AtomicLong received = new AtomicLong();

	private volatile boolean closing;

	private final boolean confirm;

	/**
	 * Starts streaming from an existing pgoutput slot.
	 * @param server the server
	 * @param database the slot's database
	 * @param slot the slot
	 * @param publication the publication to stream
	 * @param messages whether to ask for logical messages ({@code messages 'true'})
	 * @throws SQLException when the server refuses
	 */
	public LogicalConsumer(PostgresServer server, String database, String slot, String publication, boolean messages)
			throws SQLException {
		this(server, database, slot, publication, messages, true);
	}

	/**
	 * Starts streaming from an existing pgoutput slot, confirming what it receives or
	 * not.
	 * @param server the server
	 * @param database the slot's database
	 * @param slot the slot
	 * @param publication the publication to stream
	 * @param messages whether to ask for logical messages ({@code messages 'true'},
	 * PostgreSQL 14+; ignored before)
	 * @param confirm whether to confirm what it receives (a stuck consumer does not)
	 * @throws SQLException when the server refuses
	 */
	public LogicalConsumer(PostgresServer server, String database, String slot, String publication, boolean messages,
			boolean confirm) throws SQLException {
		this.confirm = confirm;
		Properties properties = new Properties();
		PGProperty.USER.set(properties, server.user());
		if (server.password() != null) {
			PGProperty.PASSWORD.set(properties, server.password());
		}
		PGProperty.REPLICATION.set(properties, "database");
		PGProperty.ASSUME_MIN_SERVER_VERSION.set(properties, "10");
		PGProperty.PREFER_QUERY_MODE.set(properties, "simple");
		this.connection = DriverManager.getConnection(server.jdbcUrl(database), properties);
		ChainedLogicalStreamBuilder builder = this.connection.unwrap(PGConnection.class)
			.getReplicationAPI()
			.replicationStream()
			.logical()
			.withSlotName(slot)
			.withSlotOption("proto_version", "1")
			.withSlotOption("publication_names", publication)
			.withStatusInterval(1, TimeUnit.SECONDS)
			.withAutomaticFlush(false);
		// pgoutput has the option from PostgreSQL 14; before that it sends every
		// transaction, empty ones included,
		// so a transactional message heartbeat reaches the consumer as BEGIN and COMMIT.
		if (messages && server.majorVersion() >= 14) {
			builder.withSlotOption("messages", "true");
		}
		this.stream = builder.start();
		this.reader = new Thread(this::read, "consumer-" + slot);
		this.reader.setDaemon(true);
		this.reader.start();
	}

	private void read() {
		try {
			while (!this.closing) {
				ByteBuffer message = this.stream.read();
				if (message != null && this.confirm) {
					LogSequenceNumber lsn = this.stream.getLastReceiveLSN();
					this.stream.setAppliedLSN(lsn);
					this.stream.setFlushedLSN(lsn);
					this.stream.forceUpdateStatus();
					this.received.incrementAndGet();
				}
			}
		}
		catch (SQLException ex) {
			if (!this.closing) {
				throw new IllegalStateException("the consumer's stream failed", ex);
			}
		}
	}

	/**
	 * Protocol messages received and confirmed so far.
	 * @return the count
	 */
	public long received() {
		return this.received.get();
	}

	@Override
	public void close() throws InterruptedException {
		this.closing = true;
		try {
			this.connection.close();
		}
		catch (SQLException ex) {
			// Closing a connection whose stream is blocked in a read may fail; the socket
			// is gone either way.
		}
		this.reader.join(TimeUnit.SECONDS.toMillis(10));
	}

}
