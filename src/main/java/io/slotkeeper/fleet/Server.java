package io.slotkeeper.fleet;

import java.time.Clock;

import io.slotkeeper.config.ServerProperties;
import io.slotkeeper.sessions.Node;
import io.slotkeeper.sessions.NodeConnector;
import io.slotkeeper.sessions.SqlWork;

/**
 * One configured server at run time: its configuration and the one session through which
 * its slots are read for all of its databases. A read younger than most of a poll
 * interval is shared, so that however many of the server's databases poll,
 * {@code pg_replication_slots} (one view for the whole server) is read about once per
 * interval.
 */
public final class Server implements AutoCloseable {

	private final ServerProperties properties;

	private final Node node;

	private final SharedReading reading;

	Server(ServerProperties properties, NodeConnector connector, Clock clock) {
		this.properties = properties;
		this.reading = new SharedReading(clock, true);
		this.node = new Node(properties.name(), Node.SERVER, properties.url(), properties.username(),
				properties.password(), properties.connection(), connector, (change) -> {
				});
	}

	/**
	 * The server's name.
	 * @return the name
	 */
	public String name() {
		return this.properties.name();
	}

	/**
	 * The server's configuration.
	 * @return the configuration
	 */
	public ServerProperties properties() {
		return this.properties;
	}

	/**
	 * The node slot-keeper reads the server's slots through: the database the server's
	 * URL names.
	 * @return the node
	 */
	public Node node() {
		return this.node;
	}

	/**
	 * What a read of the server's own session returns, read again only when the last one
	 * is older than nine tenths of the poll interval: callers take turns, and all of them
	 * get the same reading (or the same failure).
	 * @param <T> what the read returns; every caller must pass the same work
	 * @param work the read
	 * @return its result
	 * @throws io.slotkeeper.problem.ProblemException when the server cannot be reached or
	 * refuses
	 */
	public <T> T shared(SqlWork<T> work) {
		return shared(work, false);
	}

	/**
	 * As {@link #shared(SqlWork)}, or a reading made now, which the next callers then
	 * share.
	 * @param <T> what the read returns; every caller must pass the same work
	 * @param work the read
	 * @param now whether the reading must be made now: after a change, or for an operator
	 * who waits for it
	 * @return its result
	 * @throws io.slotkeeper.problem.ProblemException when the server cannot be reached or
	 * refuses
	 */
	public <T> T shared(SqlWork<T> work, boolean now) {
		return this.reading.read(this.node, work, this.properties.slotsPollInterval(), now);
	}

	/**
	 * Closes the server's session.
	 */
	@Override
	public void close() {
		this.node.close();
	}

	@Override
	public String toString() {
		return name();
	}

}
