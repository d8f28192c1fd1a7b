package io.slotkeeper.soak;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

import io.slotkeeper.testbed.PostgresServer;

/**
 * Writes into {@code public.orders} at a steady rate, inserts, updates and deletes: each
 * row numbered, each update raising its {@code version}, each delete recorded in
 * {@code deleted_orders} in the same statement (with when the row was made and deleted,
 * and the WAL position just after the delete's own record), so that the database itself
 * is the truth the consumer's view is compared with. After each delete's commit the
 * writers read the WAL position again: the delete's commit lies between the two, which
 * places it in or out of a gap without asking slot-keeper. A write that fails (the
 * primary restarting) is tried again with the next one.
 */
final class Writers implements AutoCloseable {

	static final List<String> SCHEMA = List.of(
			"CREATE TABLE orders (id bigserial PRIMARY KEY, version int NOT NULL"
					+ " DEFAULT 1, item text, created_at timestamptz NOT NULL DEFAULT clock_timestamp())",
			"CREATE TABLE deleted_orders (id bigint PRIMARY KEY, created_at timestamptz NOT NULL, deleted_at"
					+ " timestamptz NOT NULL, deleted_lsn pg_lsn NOT NULL)");

	private final PostgresServer server;

	private final String database;

	private final Random random;

	private final long pauseMillis;

	private final Thread thread;

	private final AtomicLong writes = new AtomicLong();

	private final AtomicLong failures = new AtomicLong();

	private long lastWrite = System.currentTimeMillis();

	private final AtomicLong longestWithoutWrite = new AtomicLong();

	private final List<Long> live = new ArrayList<>();

	private final Map<Long, Long> committedBefore = new ConcurrentHashMap<>();

	private volatile boolean running = true;

	Writers(PostgresServer server, String database, long seed, int perSecond) {
		this.server = server;
		this.database = database;
		this.random = new Random(seed);
		this.pauseMillis = 1000L / perSecond;
		this.thread = new Thread(this::run, "soak-writers");
		this.thread.setDaemon(true);
		this.thread.start();
	}

	private void run() {
		Connection connection = null;
		while (this.running) {
			try {
				if (connection == null || connection.isClosed()) {
					connection = this.server.connect(this.database);
				}
				writeOne(connection);
				this.writes.incrementAndGet();
				long now = System.currentTimeMillis();
				this.longestWithoutWrite.accumulateAndGet(now - this.lastWrite, Math::max);
				this.lastWrite = now;
			}
			catch (SQLException ex) {
				this.failures.incrementAndGet();
				close(connection);
				connection = null;
			}
			pause(this.pauseMillis);
		}
		close(connection);
	}

	// Half inserts, a third updates, the rest deletes: the table grows, and every kind of
	// change crosses each fault.
	private void writeOne(Connection connection) throws SQLException {
		int draw = this.random.nextInt(12);
		if (draw < 6 || this.live.size() < 20) {
			try (PreparedStatement insert = connection
				.prepareStatement("INSERT INTO orders (item) VALUES (?)" + " RETURNING id")) {
				insert.setString(1, "item " + this.random.nextInt(1000));
				try (ResultSet made = insert.executeQuery()) {
					made.next();
					this.live.add(made.getLong(1));
				}
			}
			return;
		}
		int index = this.random.nextInt(this.live.size());
		long id = this.live.get(index);
		if (draw < 10) {
			try (PreparedStatement update = connection
				.prepareStatement("UPDATE orders SET version = version + 1" + " WHERE id = ?")) {
				update.setLong(1, id);
				update.executeUpdate();
			}
			return;
		}
		try (PreparedStatement delete = connection.prepareStatement("WITH gone AS (DELETE FROM orders WHERE id = ?"
				+ " RETURNING id, created_at) INSERT INTO deleted_orders SELECT id, created_at, clock_timestamp(),"
				+ " pg_current_wal_insert_lsn() FROM gone");
				PreparedStatement position = connection
					.prepareStatement("SELECT (pg_current_wal_insert_lsn() - '0/0')::bigint")) {
			delete.setLong(1, id);
			if (delete.executeUpdate() == 1) {
				try (ResultSet after = position.executeQuery()) {
					after.next();
					this.committedBefore.put(id, after.getLong(1));
				}
			}
		}
		this.live.set(index, this.live.get(this.live.size() - 1));
		this.live.remove(this.live.size() - 1);
	}

	/**
	 * Per deleted row, a WAL position its delete committed before (read right after the
	 * commit); a delete whose connection failed before it was read has none.
	 */
	Map<Long, Long> committedBefore() {
		return this.committedBefore;
	}

	long writes() {
		return this.writes.get();
	}

	long failures() {
		return this.failures.get();
	}

	/**
	 * The longest time between two writes that succeeded: a fault stops the writes for as
	 * long as the primary is away, no longer; a writer stuck on a connection would make
	 * every time to whole again after it look long.
	 */
	long longestWithoutWriteMillis() {
		return this.longestWithoutWrite.get();
	}

	private static void pause(long millis) {
		try {
			Thread.sleep(millis);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
		}
	}

	private static void close(Connection connection) {
		try {
			if (connection != null) {
				connection.close();
			}
		}
		catch (SQLException ex) {
			// gone with the server
		}
	}

	@Override
	public void close() {
		this.running = false;
		try {
			this.thread.join(10_000);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
		}
	}

}
