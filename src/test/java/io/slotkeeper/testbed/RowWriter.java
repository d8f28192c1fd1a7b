package io.slotkeeper.testbed;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * An application writing through the Service: it inserts one row after another into
 * {@code orders(id)}, every few milliseconds, and when the server goes away it connects
 * again and writes the same row once more. A row whose commit answer was lost may already
 * be there: its duplicate-key error counts as committed.
 */
public final class RowWriter implements AutoCloseable {

	private static final long EVERY_MILLIS = 20;

	private final String url;

	private final String user;

	private final Map<Long, Long> commits = new ConcurrentHashMap<>();

	private final AtomicLong next = new AtomicLong(1);

	private final Thread writer;

	private volatile boolean closing;

	/**
	 * Starts writing.
	 * @param url the PgJDBC URL of the database with the table
	 * {@code orders(id bigint primary key)}
	 * @param user the role to write as
	 */
	public RowWriter(String url, String user) {
		this.url = url;
		this.user = user;
		this.writer = new Thread(this::run, "row-writer");
		this.writer.setDaemon(true);
		this.writer.start();
	}

	private void run() {
		while (!this.closing) {
			Properties properties = new Properties();
			properties.setProperty("user", this.user);
			properties.setProperty("connectTimeout", "2");
			properties.setProperty("socketTimeout", "5");
			try (Connection connection = DriverManager.getConnection(this.url, properties);
					PreparedStatement insert = connection.prepareStatement("INSERT INTO orders (id) VALUES (?)")) {
				while (!this.closing) {
					write(insert, this.next.get());
					if (!Pause.of(EVERY_MILLIS)) {
						return;
					}
				}
			}
			catch (SQLException ex) {
				if (!Pause.of(EVERY_MILLIS)) {
					return;
				}
			}
		}
	}

	private void write(PreparedStatement insert, long id) throws SQLException {
		insert.setLong(1, id);
		try {
			insert.executeUpdate();
		}
		catch (SQLException ex) {
			if (!"23505".equals(ex.getSQLState())) {
				throw ex;
			}
		}
		this.commits.put(id, System.nanoTime());
		this.next.incrementAndGet();
	}

	/**
	 * The rows committed so far.
	 * @return their ids
	 */
	public Set<Long> committed() {
		return Set.copyOf(this.commits.keySet());
	}

	/**
	 * The rows committed after a moment.
	 * @param nanos a {@link System#nanoTime()}
	 * @return how many
	 */
	public long committedAfter(long nanos) {
		return this.commits.values().stream().filter((at) -> at - nanos > 0).count();
	}

	/**
	 * The first row committed after a moment.
	 * @param nanos a {@link System#nanoTime()}
	 * @return its id, {@code null} when none was yet
	 */
	public Long firstCommittedAfter(long nanos) {
		return this.commits.entrySet()
			.stream()
			.filter((commit) -> commit.getValue() - nanos > 0)
			.map(Map.Entry::getKey)
			.min(Long::compare)
			.orElse(null);
	}

	/**
	 * Stops writing; what was committed stays readable.
	 */
	@Override
	public void close() throws InterruptedException {
		this.closing = true;
		this.writer.join(TimeUnit.SECONDS.toMillis(10));
	}

}
