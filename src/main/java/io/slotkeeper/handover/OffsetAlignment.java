package io.slotkeeper.handover;

import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import io.slotkeeper.config.ConnectorProperties;
import io.slotkeeper.connect.ConnectorLifecycle;
import io.slotkeeper.connect.JsonObjects;

/**
 * A Debezium PostgreSQL connector's offsets set to a new slot's position
 * ({@code connector.offsets: align}): every partition it stored (or the one its
 * {@code topic.prefix} names) at {@code lsn} and {@code lsn_proc}, so that its task
 * starts where the slot does instead of failing on a position the slot no longer has.
 */
final class OffsetAlignment {

	private OffsetAlignment() {
	}

	static ConnectorLifecycle.Answer align(ConnectorLifecycle lifecycle, ConnectorProperties connector,
			HandoverPhase.Stopped stopped, Long lsn, Instant at) {
		if (lsn == null) {
			return new ConnectorLifecycle.Answer(null, null, "the new slot has no position to align to");
		}
		List<Map<String, Object>> partitions = new ArrayList<>();
		stopped.offsetsBefore().forEach((entry) -> partitions.add(JsonObjects.asMap(entry.get("partition"))));
		if (partitions.isEmpty()) {
			Object prefix = stopped.config().get("topic.prefix");
			if (prefix == null) {
				return new ConnectorLifecycle.Answer(null, null,
						"it has no stored offsets and no topic.prefix to name" + " its partition");
			}
			partitions.add(Map.of("server", prefix));
		}
		long micros = ChronoUnit.MICROS.between(Instant.EPOCH, at);
		List<Map<String, Object>> offsets = partitions.stream()
			.map((partition) -> Map.<String, Object>of("partition", partition, "offset",
					Map.of("lsn", lsn, "lsn_proc", lsn, "ts_usec", micros)))
			.toList();
		return lifecycle.alterOffsets(connector, Map.of("offsets", offsets));
	}

}
