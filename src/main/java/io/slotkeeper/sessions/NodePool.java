package io.slotkeeper.sessions;

import io.slotkeeper.support.DaemonThreads;

import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.atomic.AtomicReference;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;

import org.springframework.jdbc.datasource.AbstractDataSource;

/**
 * A node's small connection pool for API calls and slot polling, apart from the
 * heartbeat's own session so that neither waits for the other. Every pooled connection is
 * opened by {@link NodeConnector}, with its timeouts and session options. The pool is
 * made on first use and holds no idle connection for long.
 */
final class NodePool implements AutoCloseable {

	static final int MAX_CONNECTIONS = 4;

	// One housekeeping thread for every pool: Hikari would start one per pool, a thousand
	// for a thousand targets.
	private static final ScheduledThreadPoolExecutor HOUSEKEEPING = housekeeping();

	private final Node node;

	private final NodeConnector connector;

	private volatile HikariDataSource pool;

	private volatile boolean reachable;

	// The session that found the node reachable, kept for the pool's next new connection:
	// opening a session costs
	// the server more than anything slot-keeper then asks of it, and a fleet's first
	// polls would open two per target.
	private final AtomicReference<NodeSession> probe = new AtomicReference<>();

	NodeConnector connector() {
		return this.connector;
	}

	private final int maxConnections;

	NodePool(Node node, NodeConnector connector, int maxConnections) {
		this.node = node;
		this.connector = connector;
		this.maxConnections = maxConnections;
	}

	// Hikari waits its whole connection timeout (twice the connect timeout and a second)
	// for a node that refuses, and
	// a bounded number of workers serve every target: until the node answered since its
	// last failure, one attempt of
	// slot-keeper's own finds out at once (or within the connect timeout, for one that
	// does not answer).
	Connection connection() throws SQLException {
		if (!this.reachable) {
			keepProbe(this.connector.open(this.node));
			this.reachable = true;
		}
		try {
			Connection connection = pool().getConnection();
			// The pool had an idle connection and did not take the probe.
			keepProbe(null);
			return connection;
		}
		catch (SQLException ex) {
			this.reachable = false;
			throw ex;
		}
	}

	private HikariDataSource pool() {
		HikariDataSource current = this.pool;
		if (current == null) {
			synchronized (this) {
				current = this.pool;
				if (current == null) {
					current = newPool();
					this.pool = current;
				}
			}
		}
		return current;
	}

	private HikariDataSource newPool() {
		HikariConfig config = new HikariConfig();
		config.setPoolName("slot-keeper-" + this.node.target() + (this.node.primary() ? "" : "-" + this.node.name()));
		config.setDataSource(new AbstractDataSource() {

			@Override
			public Connection getConnection() throws SQLException {
				NodeSession probed = NodePool.this.probe.getAndSet(null);
				return ((probed != null) ? probed : NodePool.this.connector.open(NodePool.this.node)).connection();
			}

			@Override
			public Connection getConnection(String username, String password) throws SQLException {
				return getConnection();
			}

		});
		config.setScheduledExecutor(HOUSEKEEPING);
		config.setMaximumPoolSize(this.maxConnections);
		config.setMinimumIdle(0);
		config.setIdleTimeout(Duration.ofSeconds(60).toMillis());
		Duration connect = this.node.connectionProperties().connectTimeout();
		config.setConnectionTimeout(connect.multipliedBy(2).plusSeconds(1).toMillis());
		config.setValidationTimeout(Math.min(connect.toMillis(), Duration.ofSeconds(5).toMillis()));
		// A node that is down at start-up must not stop slot-keeper: the pool starts
		// empty and fills on demand.
		config.setInitializationFailTimeout(-1);
		return new HikariDataSource(config);
	}

	private static ScheduledThreadPoolExecutor housekeeping() {
		ScheduledThreadPoolExecutor executor = new ScheduledThreadPoolExecutor(1,
				DaemonThreads.named("pool-housekeeping"));
		executor.setRemoveOnCancelPolicy(true);
		return executor;
	}

	private void keepProbe(NodeSession session) {
		NodeSession earlier = this.probe.getAndSet(session);
		if (earlier != null) {
			earlier.close();
		}
	}

	@Override
	public synchronized void close() {
		keepProbe(null);
		if (this.pool != null) {
			this.pool.close();
			this.pool = null;
		}
	}

}
