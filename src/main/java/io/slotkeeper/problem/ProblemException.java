package io.slotkeeper.problem;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * A problem the domain reports: its kind, a detail for the operator and optional members
 * (target, slot, SQLState…) that help them. Nothing here knows about HTTP.
 */
public class ProblemException extends RuntimeException {

	private final ProblemKind kind;

	private final Map<String, Object> properties = new LinkedHashMap<>();

	/**
	 * Creates the problem.
	 * @param kind what went wrong
	 * @param detail what happened this time, for the operator; never a secret
	 */
	public ProblemException(ProblemKind kind, String detail) {
		super(detail);
		this.kind = kind;
	}

	/**
	 * Adds a member, skipped when {@code null}.
	 * @param name the member's name
	 * @param value its value
	 * @return this problem
	 */
	public ProblemException with(String name, Object value) {
		if (value != null) {
			this.properties.put(name, value);
		}
		return this;
	}

	/**
	 * What went wrong.
	 * @return the kind
	 */
	public ProblemKind kind() {
		return this.kind;
	}

	/**
	 * The members that help the operator.
	 * @return an unmodifiable view
	 */
	public Map<String, Object> properties() {
		return Collections.unmodifiableMap(this.properties);
	}

}
