/**
 * Reading slots: the version-aware listing and its rows, the view the API shows, the listing's filters, the problems
 * a read or a change names, and the slot meters' tags.
 */
package io.slotkeeper.slot.reading;
