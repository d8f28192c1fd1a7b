package io.slotkeeper.config;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.function.Function;

/**
 * A configuration record with rules that span several properties, checked by
 * {@link Consistent}.
 */
public interface CrossFieldChecked {

	/**
	 * The broken rules, each on the property it concerns; empty when the record is
	 * consistent.
	 * @return the violations
	 */
	List<Violation> violations();

	/**
	 * One violation per element whose name an earlier element already has.
	 * @param <T> the elements' type
	 * @param list the list's property, for example {@code targets}
	 * @param elements the list
	 * @param name the name of an element, {@code null} when unset
	 * @param what what the name is, for the message, for example {@code target name}
	 * @return the violations, on {@code list[i].name}
	 */
	static <T> List<Violation> duplicateNames(String list, List<T> elements, Function<T, String> name, String what) {
		List<Violation> violations = new ArrayList<>();
		Set<String> seen = new HashSet<>();
		for (int i = 0; i < elements.size(); i++) {
			String each = name.apply(elements.get(i));
			if (each != null && !seen.add(each)) {
				violations.add(new Violation(list + "[" + i + "].name", "duplicate " + what + " '" + each + "'"));
			}
		}
		return violations;
	}

	/**
	 * A broken rule.
	 *
	 * @param property the property, relative to the record, in the record's own
	 * (camel-case) naming
	 * @param message what is wrong, for the operator
	 */
	record Violation(String property, String message) {
	}

}
