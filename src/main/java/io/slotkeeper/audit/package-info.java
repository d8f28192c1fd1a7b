/**
 * The audit trail of every change asked through the API: one structured log line and a
 * bounded in-memory journal.
 */
@ApplicationModule(allowedDependencies = { "api", "problem", "support" })
package io.slotkeeper.audit;

import org.springframework.modulith.ApplicationModule;
