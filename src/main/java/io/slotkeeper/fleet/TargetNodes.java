package io.slotkeeper.fleet;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Consumer;

import io.slotkeeper.config.TargetProperties;
import io.slotkeeper.problem.ProblemException;
import io.slotkeeper.problem.ProblemKind;
import io.slotkeeper.sessions.Node;
import io.slotkeeper.sessions.NodeConnector;
import io.slotkeeper.sessions.ServerChange;

/**
 * A target's primary and replicas, each a {@link Node} with its own pool, and what they
 * say when another server answers for one of them (a failover).
 */
public final class TargetNodes implements AutoCloseable {

	private final String target;

	private final Node primary;

	private final Map<String, Node> replicas = new LinkedHashMap<>();

	private final List<Consumer<ServerChange>> listeners = new CopyOnWriteArrayList<>();

	private volatile ServerChange lastFailover;

	TargetNodes(TargetProperties properties, NodeConnector connector) {
		this.target = properties.name();
		this.primary = new Node(properties.name(), TargetProperties.PRIMARY, properties.url(), properties.username(),
				properties.password(), properties.connection(), connector, this::changed);
		properties.replicas()
			.forEach((replica) -> this.replicas.put(replica.name(),
					new Node(properties.name(), replica.name(), replica.url(), replica.username(), replica.password(),
							properties.connection(), connector, this::changed)));
	}

	/**
	 * The primary, where heartbeats go.
	 * @return the primary
	 */
	public Node primary() {
		return this.primary;
	}

	/**
	 * One node by name.
	 * @param name {@code primary}, a replica's name, or {@code null} for the primary
	 * @return the node
	 * @throws ProblemException ({@link ProblemKind#NODE_NOT_FOUND}) when the target has
	 * no such replica
	 */
	public Node named(String name) {
		if (name == null || TargetProperties.PRIMARY.equals(name)) {
			return this.primary;
		}
		Node replica = this.replicas.get(name);
		if (replica == null) {
			throw new ProblemException(ProblemKind.NODE_NOT_FOUND, "Target '" + this.target + "' has no replica '"
					+ name + "' (nodes: primary and slotkeeper.targets[].replicas).")
				.with("target", this.target);
		}
		return replica;
	}

	/**
	 * The nodes a selector names.
	 * @param selector {@value Target#ALL_NODES} for every node, else as
	 * {@link #named(String)}
	 * @return the nodes, primary first
	 */
	public List<Node> select(String selector) {
		if (!Target.ALL_NODES.equals(selector)) {
			return List.of(named(selector));
		}
		List<Node> nodes = new ArrayList<>(List.of(this.primary));
		nodes.addAll(this.replicas.values());
		return nodes;
	}

	/**
	 * Calls a listener whenever another server answers for one of the target's nodes.
	 * @param listener the listener; it runs on the thread that opened the session, and
	 * must not block it long
	 */
	public void onServerChange(Consumer<ServerChange> listener) {
		this.listeners.add(listener);
	}

	/**
	 * The last failover of the primary this instance noticed.
	 * @return the change, empty when none was noticed since start
	 */
	public Optional<ServerChange> lastFailover() {
		return Optional.ofNullable(this.lastFailover);
	}

	private void changed(ServerChange change) {
		if (change.node().primary() && change.failover()) {
			this.lastFailover = change;
		}
		this.listeners.forEach((listener) -> listener.accept(change));
	}

	/**
	 * Closes every node's pool.
	 */
	@Override
	public void close() {
		select(Target.ALL_NODES).forEach(Node::close);
	}

}
