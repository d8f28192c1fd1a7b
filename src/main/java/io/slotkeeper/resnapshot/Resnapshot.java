package io.slotkeeper.resnapshot;

import java.time.Instant;
import java.util.List;
import java.util.Map;

/**
 * A re-snapshot sent, or why not.
 *
 * @param signalId the signal row's id, {@code null} when none was sent
 * @param collections the tables asked for
 * @param sentAt when it was inserted
 * @param notSentBecause why none was sent, {@code null} when one was
 * @param tables how the tables were chosen with {@code tables: changed}: which were left
 * out and why; {@code null} when every table was asked for
 * @param gapDeletes per table with deletes in the gap, what was done with them
 * ({@code resnapshot.deletes: signal}): signalled to slot-keeper's Debezium extension, or
 * why not; {@code null} when nothing was asked
 */
public record Resnapshot(String signalId, List<String> collections, Instant sentAt, String notSentBecause,
		TableChoice tables, Map<String, String> gapDeletes) {

	/**
	 * A re-snapshot without a gap's deletes.
	 * @param signalId the signal row's id, {@code null} when none was sent
	 * @param collections the tables asked for
	 * @param sentAt when it was inserted
	 * @param notSentBecause why none was sent, {@code null} when one was
	 * @param tables how the tables were chosen
	 */
	public Resnapshot(String signalId, List<String> collections, Instant sentAt, String notSentBecause,
			TableChoice tables) {
		this(signalId, collections, sentAt, notSentBecause, tables, null);
	}

}
