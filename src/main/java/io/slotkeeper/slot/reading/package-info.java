/**
 * Reading slots: the version-aware listing and its rows, the view the API shows, the listing's filters, the problems
 * a read or a change names, and the slot meters' tags.
 * <p>
 * A named interface of the {@code slot} module (the listing, its rows and views: read by discovery (a server's scan) and the overview).
 */
@NamedInterface("reading")
package io.slotkeeper.slot.reading;

import org.springframework.modulith.NamedInterface;
