package io.slotkeeper.heartbeat;

import java.time.Instant;

import io.slotkeeper.config.HeartbeatProperties;
import io.slotkeeper.fleet.ServerDatabase;
import io.slotkeeper.sessions.ServerChange;
import io.slotkeeper.sessions.ServerIdentity;

/**
 * A target as the API shows it: its heartbeat settings and status, never its URL
 * credentials or password.
 *
 * @param name the target's name
 * @param enabled whether heartbeats are scheduled
 * @param mode the heartbeat mode
 * @param interval the heartbeat interval, ISO-8601
 * @param serverVersion the server's version as of the last connection, {@code null}
 * before one
 * @param heartbeat the heartbeat's status
 * @param timeline the primary's timeline as of the last connection, {@code null} before
 * one or when the role may not read it
 * @param lastFailoverAt when this instance last noticed another server take over as the
 * primary, {@code null} when it did not since start
 * @param server the configured server this target was found on, {@code null} for a target
 * configured on its own
 * @param database the database it is on that server, {@code null} for a target configured
 * on its own
 */
public record TargetView(String name, boolean enabled, String mode, String interval, String serverVersion,
		HeartbeatStatus heartbeat, Long timeline, Instant lastFailoverAt, String server, String database) {

	/**
	 * A target's view as of now.
	 * @param heartbeat the target's heartbeat
	 * @return its view
	 */
	public static TargetView of(TargetHeartbeat heartbeat) {
		HeartbeatProperties settings = heartbeat.target().properties().heartbeat();
		HeartbeatStatus status = heartbeat.status();
		ServerIdentity server = heartbeat.target().primary().identity();
		return new TargetView(heartbeat.target().name(), settings.enabled(), settings.mode().name().toLowerCase(),
				settings.interval().toString(), status.serverVersion(), status,
				(server != null) ? server.timeline() : null,
				heartbeat.target().nodes().lastFailover().map(ServerChange::at).orElse(null),
				heartbeat.target().origin().map((origin) -> origin.server().name()).orElse(null),
				heartbeat.target().origin().map(ServerDatabase::database).orElse(null));
	}

}
