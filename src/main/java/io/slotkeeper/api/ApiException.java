package io.slotkeeper.api;

import java.net.URI;
import java.util.LinkedHashMap;
import java.util.Map;

import org.springframework.http.HttpStatus;

/**
 * A failure the API reports as a problem: its status, a stable type, a title, a detail for the operator and
 * optional extra members (such as the SQLState).
 */
public abstract class ApiException extends RuntimeException {

	/**
	 * Where problem types live: {@code urn:slotkeeper:problem:<slug>}, listed in README.md.
	 */
	public static final String TYPE_PREFIX = "urn:slotkeeper:problem:";

	private final HttpStatus status;

	private final String slug;

	private final String title;

	private final Map<String, Object> properties = new LinkedHashMap<>();

	/**
	 * Creates the exception.
	 * @param status the HTTP status
	 * @param slug the problem type's last part, for example {@code target-not-found}
	 * @param title a short summary that is the same for every problem of this type
	 * @param detail what happened this time
	 */
	protected ApiException(HttpStatus status, String slug, String title, String detail) {
		super(detail);
		this.status = status;
		this.slug = slug;
		this.title = title;
	}

	/**
	 * Adds a member to the problem, skipped when {@code null}.
	 * @param name the member's name
	 * @param value its value
	 * @return this exception
	 */
	protected ApiException with(String name, Object value) {
		if (value != null) {
			this.properties.put(name, value);
		}
		return this;
	}

	/**
	 * The HTTP status.
	 * @return the status
	 */
	public HttpStatus status() {
		return this.status;
	}

	/**
	 * The problem type.
	 * @return the type URI
	 */
	public URI type() {
		return URI.create(TYPE_PREFIX + this.slug);
	}

	/**
	 * The problem title.
	 * @return the title
	 */
	public String title() {
		return this.title;
	}

	/**
	 * Extra members of the problem.
	 * @return the members
	 */
	public Map<String, Object> properties() {
		return this.properties;
	}

}
