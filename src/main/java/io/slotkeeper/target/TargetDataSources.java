package io.slotkeeper.target;

import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;

import org.springframework.jdbc.datasource.AbstractDataSource;

import io.slotkeeper.config.TargetProperties;

/**
 * A small connection pool per target for API calls and slot polling, apart from the heartbeat's own session so that
 * neither waits for the other. Every pooled connection is opened by {@link TargetConnector}, with its timeouts and
 * session options. Pools are made on first use and hold no idle connection for long.
 */
public class TargetDataSources implements AutoCloseable {

	private static final int MAX_CONNECTIONS_PER_TARGET = 4;

	private final TargetConnector connector;

	private final Map<String, HikariDataSource> pools = new ConcurrentHashMap<>();

	/**
	 * Creates the pools' owner.
	 * @param connector opens the connections
	 */
	public TargetDataSources(TargetConnector connector) {
		this.connector = connector;
	}

	/**
	 * A connection to a target, to be closed by the caller.
	 * @param target the target
	 * @return the connection, auto-commit
	 * @throws SQLException when the target cannot be reached in time
	 */
	public Connection connection(TargetProperties target) throws SQLException {
		return this.pools.computeIfAbsent(target.name(), (name) -> pool(target)).getConnection();
	}

	/**
	 * Runs work on a connection to a target, mapping what the driver throws to the problem an operator sees.
	 * @param <T> what the work returns
	 * @param target the target (or a node of it)
	 * @param work the work
	 * @return what the work returned
	 * @throws TargetSqlException when the target cannot be reached or refuses
	 */
	public <T> T withConnection(TargetProperties target, SqlWork<T> work) {
		try (Connection connection = connection(target)) {
			return work.apply(connection);
		}
		catch (SQLException ex) {
			throw TargetSqlException.of(target.name(), target.username(), ex);
		}
	}

	/**
	 * Work on a connection.
	 * @param <T> what it returns
	 */
	@FunctionalInterface
	public interface SqlWork<T> {

		/**
		 * Does the work.
		 * @param connection the connection, auto-commit
		 * @return the result
		 * @throws SQLException when the server refuses
		 */
		T apply(Connection connection) throws SQLException;

	}

	private HikariDataSource pool(TargetProperties target) {
		HikariConfig config = new HikariConfig();
		config.setPoolName("slot-keeper-" + target.name());
		config.setDataSource(new AbstractDataSource() {

			@Override
			public Connection getConnection() throws SQLException {
				return TargetDataSources.this.connector.open(target).connection();
			}

			@Override
			public Connection getConnection(String username, String password) throws SQLException {
				return getConnection();
			}

		});
		config.setMaximumPoolSize(MAX_CONNECTIONS_PER_TARGET);
		config.setMinimumIdle(0);
		config.setIdleTimeout(Duration.ofSeconds(60).toMillis());
		Duration connect = target.heartbeat().connectTimeout();
		config.setConnectionTimeout(connect.multipliedBy(2).plusSeconds(1).toMillis());
		config.setValidationTimeout(Math.min(connect.toMillis(), Duration.ofSeconds(5).toMillis()));
		// A target that is down at start-up must not stop slot-keeper: the pool starts empty and fills on demand.
		config.setInitializationFailTimeout(-1);
		return new HikariDataSource(config);
	}

	/**
	 * Closes every pool.
	 */
	@Override
	public void close() {
		this.pools.values().forEach(HikariDataSource::close);
		this.pools.clear();
	}

}
