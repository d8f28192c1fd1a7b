/**
 * API conventions shared by every feature: typed exceptions and their mapping to RFC 9457
 * problem details.
 */
@ApplicationModule(allowedDependencies = { "problem" })
package io.slotkeeper.api;

import org.springframework.modulith.ApplicationModule;
