package io.slotkeeper.resnapshot;

import java.util.List;
import java.util.Map;

/**
 * How the tables of a re-snapshot were chosen, in its answer.
 *
 * @param why which tables are read, and why
 * @param skipped the tables left out, each with the reason
 * @param conditions for the tables narrowed to the lost window, the filter Debezium adds
 * to its reads
 * @param readWhole the tables with an update column that are read whole all the same,
 * each with the reason (the column does not exist, or is not a timestamp with time zone)
 */
public record TableChoice(String why, List<SkippedTable> skipped, Map<String, String> conditions,
		Map<String, String> readWhole) {
}
