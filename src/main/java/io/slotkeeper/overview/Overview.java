package io.slotkeeper.overview;

import java.time.Instant;
import java.util.List;

/**
 * A page of the fleet, problems first.
 *
 * @param generatedAt when it was put together
 * @param instance the identity of the instance that answered
 * @param counts the whole fleet's counts, whatever the filter
 * @param page the page's number, from 0
 * @param size targets per page
 * @param matching targets that match the filter
 * @param pages pages of matching targets
 * @param targets this page's targets, worst first, then by name
 */
public record Overview(Instant generatedAt, String instance, Counts counts, int page, int size, int matching, int pages,
		List<TargetSummary> targets) {

	/**
	 * How many targets and slots there are, and how many are in trouble.
	 *
	 * @param targets targets
	 * @param targetsDown targets whose severity is down
	 * @param targetsWarning targets whose severity is warning
	 * @param slots slots of the targets' primaries
	 * @param slotsDown slots whose severity is down
	 * @param slotsWarning slots whose severity is warning
	 */
	public record Counts(int targets, int targetsDown, int targetsWarning, int slots, int slotsDown, int slotsWarning) {
	}

}
