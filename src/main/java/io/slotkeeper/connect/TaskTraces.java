package io.slotkeeper.connect;

import java.util.List;

/**
 * What a failed task's trace says, in one line: its first line (the exception Kafka
 * Connect caught, often only "An exception occurred in the change event producer"), and
 * when a line further down names a lost or missing slot, that line too: PostgreSQL words
 * it differently by version, and Debezium adds its own.
 */
final class TaskTraces {

	// PostgreSQL 13-17: "can no longer get changes from replication slot"; 15 also
	// "cannot read from logical
	// replication slot"; 18: "can no longer access replication slot"; then Debezium's own
	// words.
	private static final List<String> SLOT_CAUSES = List.of("can no longer get changes from replication slot",
			"can no longer access replication slot", "cannot read from logical replication slot",
			"This slot has been invalidated", "no longer available on the server",
			"Unable to obtain valid replication slot");

	private TaskTraces() {
	}

	/**
	 * One line for a task's trace.
	 * @param trace the trace as Kafka Connect answers it, {@code null} when none
	 * @return its first line, with the line naming the slot's loss when there is one
	 * below it
	 */
	static String summary(String trace) {
		if (trace == null || trace.isBlank()) {
			return trace;
		}
		String[] lines = trace.strip().split("\\R");
		String first = lines[0].strip();
		if (SLOT_CAUSES.stream().anyMatch(first::contains)) {
			return first;
		}
		for (String cause : SLOT_CAUSES) {
			for (int i = 1; i < lines.length; i++) {
				if (lines[i].contains(cause)) {
					return first + " (" + lines[i].strip().replaceFirst("^Caused by: ", "caused by: ") + ")";
				}
			}
		}
		return first;
	}

}
