/**
 * Configuration records bound from {@code slotkeeper.*}, validated at start-up.
 */
@ApplicationModule(allowedDependencies = {})
package io.slotkeeper.config;

import org.springframework.modulith.ApplicationModule;
