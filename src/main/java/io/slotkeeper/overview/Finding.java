package io.slotkeeper.overview;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * What is wrong with a target or a slot, in words, with how bad it is.
 *
 * @param severity how bad
 * @param text what, in words an on-call engineer reads
 */
record Finding(Severity severity, String text) {

	/**
	 * The findings' severity.
	 * @param findings the findings
	 * @return the worst, {@link Severity#OK} when none
	 */
	static Severity worst(List<Finding> findings) {
		return Severity.worst(findings.stream().map(Finding::severity).toList());
	}

	/**
	 * The findings' words, worst first.
	 * @param findings the findings
	 * @return the texts
	 */
	static List<String> texts(List<Finding> findings) {
		List<Finding> sorted = new ArrayList<>(findings);
		sorted.sort(Comparator.comparing(Finding::severity));
		return sorted.stream().map(Finding::text).toList();
	}

}
