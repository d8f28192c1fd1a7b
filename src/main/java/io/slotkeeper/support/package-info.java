/**
 * Small building blocks any capability may use (a bounded memory of recent answers). It calls nothing else of
 * slot-keeper's.
 */
package io.slotkeeper.support;
