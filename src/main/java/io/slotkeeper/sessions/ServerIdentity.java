package io.slotkeeper.sessions;

import java.time.Instant;
import java.util.Objects;

/**
 * Which server answered for a node: enough to tell a different server (a promoted
 * standby, another pod behind the same Service) from the same one answering again.
 *
 * @param address the server's address as it sees it ({@code inet_server_addr()}),
 * {@code null} over a Unix socket
 * @param port the server's port ({@code inet_server_port()}), {@code null} over a Unix
 * socket
 * @param startedAt when the server's postmaster started
 * ({@code pg_postmaster_start_time()})
 * @param timeline a primary's current timeline (from its current WAL file's name), a
 * standby's last restartpoint's ({@code pg_control_checkpoint()}); {@code null} when the
 * role may not read the control file
 * @param systemIdentifier the cluster's system identifier ({@code pg_control_system()}),
 * shared by a primary and its physical standbys; {@code null} when the role may not read
 * it
 * @param inRecovery whether it is a standby ({@code pg_is_in_recovery()})
 */
public record ServerIdentity(String address, Integer port, Instant startedAt, Long timeline, String systemIdentifier,
		boolean inRecovery) {

	/**
	 * Whether another identity names the same running server: same address, port and
	 * postmaster start. A restart, a promotion elsewhere or another pod behind the same
	 * name all count as another server.
	 * @param other the other identity, or {@code null}
	 * @return whether both are the same running server
	 */
	public boolean sameServerAs(ServerIdentity other) {
		return other != null && Objects.equals(this.address, other.address) && Objects.equals(this.port, other.port)
				&& Objects.equals(this.startedAt, other.startedAt);
	}

}
