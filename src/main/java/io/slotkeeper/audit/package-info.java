/**
 * The audit trail of every change asked through the API: one structured log line and a bounded in-memory journal.
 */
package io.slotkeeper.audit;
