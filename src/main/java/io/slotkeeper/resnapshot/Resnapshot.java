package io.slotkeeper.resnapshot;

import java.time.Instant;
import java.util.List;

/**
 * A re-snapshot sent, or why not.
 *
 * @param signalId the signal row's id, {@code null} when none was sent
 * @param collections the tables asked for
 * @param sentAt when it was inserted
 * @param notSentBecause why none was sent, {@code null} when one was
 * @param tables how the tables were chosen with {@code tables: changed}: which were left
 * out and why; {@code null} when every table was asked for
 */
public record Resnapshot(String signalId, List<String> collections, Instant sentAt, String notSentBecause,
		TableChoice tables) {
}
