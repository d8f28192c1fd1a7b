package io.slotkeeper.slot;

import java.util.List;
import java.util.Map;

import com.fasterxml.jackson.annotation.JsonUnwrapped;

import io.slotkeeper.connect.ConnectorStatus;
import io.slotkeeper.handover.ConnectorHandover;

/**
 * A slot's connector as Kafka Connect sees it now, with its stored offsets and what the
 * last recreate did with it.
 *
 * @param status its status now, the failed task's first trace line included
 * @param offsets its stored offsets now, {@code null} when Kafka Connect did not list
 * them (before 3.6)
 * @param lastHandover the last handover to a recreated slot made by this instance:
 * offsets before and after, final state; {@code null} when none
 */
public record SlotConnectorView(@JsonUnwrapped ConnectorStatus status, List<Map<String, Object>> offsets,
		ConnectorHandover lastHandover) {

}
