/**
 * Small building blocks any capability may use (a bounded memory of recent answers, work
 * due again, a gauge of many series that stay registered). It calls nothing else of
 * slot-keeper's.
 */
@ApplicationModule(allowedDependencies = {})
package io.slotkeeper.support;

import org.springframework.modulith.ApplicationModule;
