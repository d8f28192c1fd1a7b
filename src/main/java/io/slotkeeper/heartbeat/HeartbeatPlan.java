package io.slotkeeper.heartbeat;

import java.util.List;

import io.slotkeeper.config.HeartbeatProperties;

/**
 * What a heartbeat would write, answered for {@code dryRun=true}: nothing ran.
 *
 * @param dryRun always {@code true}
 * @param action always {@code heartbeat}
 * @param target the target
 * @param steps what would run, in order
 */
public record HeartbeatPlan(boolean dryRun, String action, String target, List<String> steps) {

	static HeartbeatPlan of(TargetHeartbeat heartbeat) {
		HeartbeatProperties settings = heartbeat.target().properties().heartbeat();
		String write = switch (settings.mode()) {
			case MESSAGE -> "pg_logical_emit_message(" + settings.transactional() + ", '" + settings.prefix()
					+ "', …): a logical message";
			case TABLE -> "an upsert of one row into " + settings.table();
			case QUERY -> "the configured heartbeat query";
		};
		return new HeartbeatPlan(true, "heartbeat", heartbeat.target().name(),
				List.of("connect to the primary of target '" + heartbeat.target().name() + "' (or use its session)",
						"write one heartbeat: " + write, "answer its LSN and duration"));
	}

}
