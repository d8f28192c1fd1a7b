/**
 * Changing slots: the safety rules, the steps a change is made of, dry-run plans, and the
 * service that creates, drops and recreates slots under the target's change lock.
 * <p>
 * A named interface of the {@code slot} module (the runbook: used by healing, which
 * recreates through it).
 */
@NamedInterface("changing")
package io.slotkeeper.slot.changing;

import org.springframework.modulith.NamedInterface;
