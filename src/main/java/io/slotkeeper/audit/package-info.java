/**
 * The audit trail of every change asked through the API: one structured log line and a
 * bounded in-memory journal.
 */
@ApplicationModule(allowedDependencies = { "api", "fleet", "problem" })
package io.slotkeeper.audit;

import org.springframework.modulith.ApplicationModule;
