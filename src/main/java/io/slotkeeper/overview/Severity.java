package io.slotkeeper.overview;

import java.util.Collection;
import java.util.Comparator;

import com.fasterxml.jackson.annotation.JsonValue;

/**
 * How bad what the overview found is, worst first: the page's ordering and colours.
 */
public enum Severity {

	/**
	 * Something is broken now: a heartbeat failing, a slot lost or missing, a connector
	 * failed.
	 */
	DOWN,

	/**
	 * Something will break or needs a look: stale data, a slot past its limit or soon
	 * lost, a consumer not confirming, a connector not running, a slot that would not
	 * survive a failover.
	 */
	WARNING,

	/**
	 * Not known yet: before the first poll.
	 */
	UNKNOWN,

	/**
	 * Nothing wrong.
	 */
	OK;

	/**
	 * The name as JSON shows it.
	 * @return the name in lower case
	 */
	@JsonValue
	public String json() {
		return name().toLowerCase();
	}

	/**
	 * The worst of some severities.
	 * @param severities the severities
	 * @return the worst, {@link #OK} when none
	 */
	static Severity worst(Collection<Severity> severities) {
		return severities.stream().min(Comparator.naturalOrder()).orElse(OK);
	}

}
