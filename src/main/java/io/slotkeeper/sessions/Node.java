package io.slotkeeper.sessions;

import java.sql.Connection;
import java.sql.SQLException;
import java.time.Instant;
import java.util.function.Consumer;

import io.slotkeeper.config.ConnectionProperties;
import io.slotkeeper.config.Secret;
import io.slotkeeper.config.ServerUrls;
import io.slotkeeper.config.TargetProperties;

/**
 * One server of a target: its primary or a replica. It knows how to reach the server,
 * keeps a small pool for it, and remembers the version and the identity of the server
 * that answered last.
 */
public final class Node implements AutoCloseable {

	private final String target;

	private final String name;

	private final String url;

	private final String username;

	private final Secret password;

	private final ConnectionProperties connection;

	private final NodePool pool;

	private final Consumer<ServerChange> changes;

	private volatile ServerVersion version;

	private volatile ServerIdentity identity;

	/**
	 * The name of the node through which a configured server's slots are read; its target
	 * is the server's name.
	 */
	public static final String SERVER = "server";

	/**
	 * A node with a pool of at most {@link NodePool#MAX_CONNECTIONS} sessions.
	 * @param target its target's name
	 * @param name its name within the target ({@code primary}, a replica's, or
	 * {@link #SERVER})
	 * @param url its JDBC URL, never logged
	 * @param username the role it logs in as
	 * @param password the role's password
	 * @param connection timeouts and session options
	 * @param connector opens its sessions
	 * @param changes told when another server answers at its address
	 */
	public Node(String target, String name, String url, String username, Secret password,
			ConnectionProperties connection, NodeConnector connector, Consumer<ServerChange> changes) {
		this(target, name, url, username, password, connection, connector, changes, NodePool.MAX_CONNECTIONS);
	}

	private Node(String target, String name, String url, String username, Secret password,
			ConnectionProperties connection, NodeConnector connector, Consumer<ServerChange> changes, int sessions) {
		this.target = target;
		this.name = name;
		this.url = url;
		this.username = username;
		this.password = password;
		this.connection = connection;
		this.pool = new NodePool(this, connector, sessions);
		this.changes = changes;
	}

	/**
	 * The name of the target this node belongs to.
	 * @return the target's name
	 */
	public String target() {
		return this.target;
	}

	/**
	 * The node's name: {@code primary} or the replica's name.
	 * @return the name
	 */
	public String name() {
		return this.name;
	}

	/**
	 * Whether this is the target's primary.
	 * @return whether it is the primary
	 */
	public boolean primary() {
		return TargetProperties.PRIMARY.equals(this.name);
	}

	/**
	 * The node as operators read it in messages.
	 * @return for example {@code target 'orders'},
	 * {@code replica 'r1' of target 'orders'} or {@code server 'rbac-db'}
	 */
	public String describe() {
		if (SERVER.equals(this.name)) {
			return "server '" + this.target + "'";
		}
		return primary() ? "target '" + this.target + "'"
				: "replica '" + this.name + "' of target '" + this.target + "'";
	}

	/**
	 * The node as the subject of a sentence.
	 * @return for example {@code Target 'orders'} or
	 * {@code Replica 'r1' of target 'orders'}
	 */
	public String subject() {
		String described = describe();
		return Character.toUpperCase(described.charAt(0)) + described.substring(1);
	}

	/**
	 * The role slot-keeper logs in as.
	 * @return the role, {@code null} when the URL or the driver's defaults say
	 */
	public String username() {
		return this.username;
	}

	String url() {
		return this.url;
	}

	Secret password() {
		return this.password;
	}

	/**
	 * The timeouts of every session to this node.
	 * @return the target's connection settings
	 */
	public ConnectionProperties connectionProperties() {
		return this.connection;
	}

	/**
	 * The server's version as of the last session opened, {@code null} before one.
	 * @return the version
	 */
	public ServerVersion version() {
		return this.version;
	}

	/**
	 * Which server answered the last session opened, {@code null} before one.
	 * @return the identity
	 */
	public ServerIdentity identity() {
		return this.identity;
	}

	// Sessions of the heartbeat and of the pool may answer at once: the identity is
	// swapped once per change.
	synchronized void answered(ServerVersion version, ServerIdentity identity, Instant at) {
		ServerIdentity before = this.identity;
		this.version = version;
		this.identity = identity;
		if (before != null && !identity.sameServerAs(before)) {
			this.changes.accept(new ServerChange(this, before, identity, at));
		}
	}

	/**
	 * A pooled connection, to be closed by the caller.
	 * @return the connection, auto-commit
	 * @throws SQLException when the node cannot be reached in time
	 */
	public Connection connection() throws SQLException {
		return this.pool.connection();
	}

	/**
	 * Runs work on a pooled connection, turning what the driver throws into the problem
	 * an operator sees.
	 * @param <T> what the work returns
	 * @param work the work
	 * @return what the work returned
	 * @throws io.slotkeeper.problem.ProblemException when the node cannot be reached or
	 * refuses
	 */
	public <T> T withConnection(SqlWork<T> work) {
		try (Connection connection = connection()) {
			return work.apply(connection);
		}
		catch (SQLException ex) {
			throw TargetProblems.of(this, ex);
		}
	}

	/**
	 * Another database of this node's server, reached with the same login and timeouts: a
	 * node of its own, whose pool of one session opens on first use and is closed by the
	 * caller. One, because each such node adds to what slot-keeper holds of the server's
	 * connections for every target that uses one.
	 * @param database the database's name
	 * @return the node
	 */
	public Node inDatabase(String database) {
		return new Node(this.target, this.name, ServerUrls.forDatabase(this.url, database), this.username,
				this.password, this.connection, this.pool.connector(), (change) -> {
				}, 1);
	}

	/**
	 * Closes the node's pool.
	 */
	@Override
	public void close() {
		this.pool.close();
	}

	@Override
	public String toString() {
		return this.target + "/" + this.name;
	}

}
