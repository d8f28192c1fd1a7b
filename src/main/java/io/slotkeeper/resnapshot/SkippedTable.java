package io.slotkeeper.resnapshot;

/**
 * A table a re-snapshot left out.
 *
 * @param table {@code schema.table}
 * @param why why
 */
public record SkippedTable(String table, String why) {
}
