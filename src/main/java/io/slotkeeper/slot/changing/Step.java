package io.slotkeeper.slot.changing;

/**
 * One step of a slot change, as a dry run lists it and as it runs.
 *
 * @param description what it does, in the plan's words
 * @param action the statement it runs
 */
record Step(String description, SqlAction action) {
}
