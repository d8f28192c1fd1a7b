/**
 * Changing slots: the safety rules, the steps a change is made of, dry-run plans, and the service that creates,
 * drops and recreates slots under the target's change lock.
 */
package io.slotkeeper.slot.changing;
