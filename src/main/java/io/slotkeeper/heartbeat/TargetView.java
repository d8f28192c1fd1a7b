package io.slotkeeper.heartbeat;

import io.slotkeeper.config.HeartbeatProperties;

/**
 * A target as the API shows it: its heartbeat settings and status, never its URL credentials or password.
 *
 * @param name the target's name
 * @param enabled whether heartbeats are scheduled
 * @param mode the heartbeat mode
 * @param interval the heartbeat interval, ISO-8601
 * @param serverVersion the server's version as of the last connection, {@code null} before one
 * @param heartbeat the heartbeat's status
 */
public record TargetView(String name, boolean enabled, String mode, String interval, String serverVersion,
		HeartbeatStatus heartbeat) {

	static TargetView of(TargetHeartbeat heartbeat) {
		HeartbeatProperties settings = heartbeat.target().properties().heartbeat();
		HeartbeatStatus status = heartbeat.status();
		return new TargetView(heartbeat.target().name(), settings.enabled(), settings.mode().name().toLowerCase(),
				settings.interval().toString(), status.serverVersion(), status);
	}

}
