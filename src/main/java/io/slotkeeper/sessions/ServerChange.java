package io.slotkeeper.sessions;

import java.time.Instant;
import java.util.Objects;

/**
 * Another server answered for a node than the one before: a failover (a different
 * address, or a new timeline) or a restart of the same server.
 *
 * @param node the node
 * @param before the server that answered before
 * @param after the server that answers now
 * @param at when it was noticed
 */
public record ServerChange(Node node, ServerIdentity before, ServerIdentity after, Instant at) {

	/**
	 * Whether another server took over, rather than the same one restarting: its address
	 * or port differ, or its timeline moved on (a promoted standby).
	 * @return whether this is a failover
	 */
	public boolean failover() {
		return !Objects.equals(this.before.address(), this.after.address())
				|| !Objects.equals(this.before.port(), this.after.port()) || (this.before.timeline() != null
						&& this.after.timeline() != null && !this.before.timeline().equals(this.after.timeline()));
	}

	/**
	 * The change in one line, for logs and the audit.
	 * @return for example
	 * {@code 10.0.0.5:5432 (timeline 1) -> 10.0.0.6:5432 (timeline 2)}
	 */
	public String describe() {
		return describe(this.before) + " -> " + describe(this.after);
	}

	private static String describe(ServerIdentity server) {
		return server.address() + ":" + server.port() + " (timeline " + server.timeline() + ", started "
				+ server.startedAt() + ")";
	}

}
