package io.slotkeeper.resnapshot;

import java.util.List;

/**
 * What a re-snapshot would insert.
 *
 * @param table the signal table
 * @param collections the tables to snapshot
 * @param type {@code incremental} or {@code blocking}
 */
public record Signal(String table, List<String> collections, String type) {
}
