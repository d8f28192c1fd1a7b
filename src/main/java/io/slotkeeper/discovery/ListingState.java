package io.slotkeeper.discovery;

import java.time.Instant;
import java.util.List;

import io.slotkeeper.connect.FoundConnector;

/**
 * A source's last listing.
 *
 * @param listedAt when it last answered, {@code null} when it never has
 * @param triedAt when it was last asked
 * @param error why the last attempt failed, {@code null} when it answered
 * @param connectors its connectors as last listed
 */
record ListingState(Instant listedAt, Instant triedAt, String error, List<FoundConnector> connectors) {
}
