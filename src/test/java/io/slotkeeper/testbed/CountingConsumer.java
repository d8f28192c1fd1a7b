package io.slotkeeper.testbed;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import org.postgresql.PGConnection;
import org.postgresql.PGProperty;
import org.postgresql.replication.LogSequenceNumber;
import org.postgresql.replication.PGReplicationStream;

/**
 * A CDC consumer that survives a failover as Debezium with {@code errors.max.retries=-1}
 * does: it streams a pgoutput slot through an address (a forwarder playing the Service),
 * confirms each transaction once it has it, and when the stream breaks or the slot is not
 * there it connects again and resumes from what it confirmed; caught up, it confirms the
 * server's position. It records the first column of every inserted row, so that a test
 * counts which rows never arrived, and when each first arrived.
 */
public final class CountingConsumer implements AutoCloseable {

	private static final long RECONNECT_MILLIS = 200;

	private final String url;

	private final String user;

	private final String slot;

	private final String publication;

	private final Map<Long, Long> arrivals = new ConcurrentHashMap<>();

	private final AtomicInteger connections = new AtomicInteger();

	private final Thread reader;

	private volatile LogSequenceNumber confirmed = LogSequenceNumber.INVALID_LSN;

	private volatile Connection connection;

	private volatile String lastError;

	private volatile boolean closing;

	/**
	 * Starts consuming; it keeps trying until the slot can be streamed.
	 * @param url the PgJDBC URL of the slot's database, through the address consumers use
	 * @param user a role with REPLICATION
	 * @param slot a pgoutput slot
	 * @param publication the publication to stream, with {@code messages} on so that
	 * heartbeats reach it
	 */
	public CountingConsumer(String url, String user, String slot, String publication) {
		this.url = url;
		this.user = user;
		this.slot = slot;
		this.publication = publication;
		this.reader = new Thread(this::run, "counting-consumer-" + slot);
		this.reader.setDaemon(true);
		this.reader.start();
	}

	private void run() {
		while (!this.closing) {
			try {
				stream();
			}
			catch (SQLException | RuntimeException ex) {
				this.lastError = ex.getMessage();
			}
			closeConnection();
			if (!this.closing && !Pause.of(RECONNECT_MILLIS)) {
				return;
			}
		}
	}

	private void stream() throws SQLException {
		Properties properties = new Properties();
		PGProperty.USER.set(properties, this.user);
		PGProperty.REPLICATION.set(properties, "database");
		PGProperty.ASSUME_MIN_SERVER_VERSION.set(properties, "10");
		PGProperty.PREFER_QUERY_MODE.set(properties, "simple");
		PGProperty.CONNECT_TIMEOUT.set(properties, 2);
		// A server gone silent behind the forwarder must not keep the consumer waiting
		// for ever.
		PGProperty.SOCKET_TIMEOUT.set(properties, 10);
		this.connection = DriverManager.getConnection(this.url, properties);
		PGReplicationStream stream = this.connection.unwrap(PGConnection.class)
			.getReplicationAPI()
			.replicationStream()
			.logical()
			.withSlotName(this.slot)
			.withStartPosition(this.confirmed)
			.withSlotOption("proto_version", "1")
			.withSlotOption("publication_names", this.publication)
			.withSlotOption("messages", "true")
			.withStatusInterval(1, TimeUnit.SECONDS)
			.withAutomaticFlush(false)
			.start();
		this.connections.incrementAndGet();
		boolean inTransaction = false;
		while (!this.closing) {
			ByteBuffer message = stream.readPending();
			if (message == null) {
				// Caught up between transactions, it confirms what the server said it has
				// sent, as PostgreSQL's own
				// apply worker does: a server shutting down waits for its consumers to
				// confirm its last record.
				if (!inTransaction && stream.getLastReceiveLSN().compareTo(this.confirmed) > 0) {
					confirm(stream);
				}
				if (!Pause.of(5)) {
					return;
				}
				continue;
			}
			byte kind = message.get(message.position());
			inTransaction = (kind == 'B') || (inTransaction && kind != 'C');
			if (kind == 'I') {
				this.arrivals.putIfAbsent(firstColumn(message), System.nanoTime());
			}
			else if (kind == 'C' || (kind == 'M' && !inTransaction)) {
				confirm(stream);
			}
		}
	}

	private void confirm(PGReplicationStream stream) throws SQLException {
		LogSequenceNumber lsn = stream.getLastReceiveLSN();
		stream.setAppliedLSN(lsn);
		stream.setFlushedLSN(lsn);
		stream.forceUpdateStatus();
		this.confirmed = lsn;
	}

	// pgoutput 'I': relation oid, 'N', column count, then per column a kind byte and, for
	// text, its length and bytes.
	private static long firstColumn(ByteBuffer message) {
		ByteBuffer buffer = message.duplicate();
		buffer.position(message.position() + 1 + 4 + 1 + 2);
		byte kind = buffer.get();
		if (kind != 't') {
			throw new IllegalStateException("the first column is not sent as text: " + (char) kind);
		}
		byte[] text = new byte[buffer.getInt()];
		buffer.get(text);
		return Long.parseLong(new String(text, StandardCharsets.UTF_8));
	}

	private void closeConnection() {
		Connection open = this.connection;
		if (open != null) {
			try {
				open.close();
			}
			catch (SQLException ex) {
				// The socket may already be gone: the next attempt opens a new one either
				// way.
			}
		}
	}

	/**
	 * The rows received so far, by their first column.
	 * @return their keys
	 */
	public Set<Long> received() {
		return Set.copyOf(this.arrivals.keySet());
	}

	/**
	 * When a row first arrived.
	 * @param key its first column
	 * @return {@link System#nanoTime()} at its arrival, {@code null} when it has not
	 */
	public Long arrivedAt(long key) {
		return this.arrivals.get(key);
	}

	/**
	 * How many times the stream was started.
	 * @return the count
	 */
	public int connections() {
		return this.connections.get();
	}

	/**
	 * Why the last attempt to stream ended, {@code null} before any did.
	 * @return the message
	 */
	public String lastError() {
		return this.lastError;
	}

	@Override
	public void close() throws InterruptedException {
		this.closing = true;
		closeConnection();
		this.reader.join(TimeUnit.SECONDS.toMillis(10));
	}

}
