package io.slotkeeper.config;

import java.util.List;

/**
 * A configuration record with rules that span several properties, checked by {@link Consistent}.
 */
public interface CrossFieldChecked {

	/**
	 * The broken rules, each on the property it concerns; empty when the record is consistent.
	 * @return the violations
	 */
	List<Violation> violations();

	/**
	 * A broken rule.
	 * @param property the property, relative to the record, in the record's own (camel-case) naming
	 * @param message what is wrong, for the operator
	 */
	record Violation(String property, String message) {
	}

}
