package io.slotkeeper.api;

import java.net.URI;

import org.springframework.http.HttpStatus;

import io.slotkeeper.problem.ProblemKind;

/**
 * The one place where a problem kind becomes HTTP: its status, its stable type URI
 * ({@code urn:slotkeeper:problem:<slug>}, listed in docs/api.md) and its title.
 */
public final class ProblemTypes {

	/**
	 * Where problem types live.
	 */
	public static final String TYPE_PREFIX = "urn:slotkeeper:problem:";

	/**
	 * The slug of a call without a valid token, answered by the security edge.
	 */
	public static final String UNAUTHORIZED = "unauthorized";

	/**
	 * The slug of a call the token's role may not make.
	 */
	public static final String FORBIDDEN = "forbidden";

	/**
	 * The slug of a token that could not be checked now (the Kubernetes API server is
	 * down or slow).
	 */
	public static final String SIGN_IN_UNAVAILABLE = "sign-in-unavailable";

	/**
	 * The slug of an unexpected failure of slot-keeper itself.
	 */
	public static final String INTERNAL_ERROR = "internal-error";

	private ProblemTypes() {
	}

	/**
	 * How the API answers a kind of problem.
	 * @param kind the kind
	 * @return its status, type and title
	 */
	public static ProblemType of(ProblemKind kind) {
		return switch (kind) {
			case TARGET_NOT_FOUND -> new ProblemType(HttpStatus.NOT_FOUND, "target-not-found", "Unknown target");
			case NODE_NOT_FOUND -> new ProblemType(HttpStatus.NOT_FOUND, "node-not-found", "Unknown node");
			case SLOT_NOT_FOUND -> new ProblemType(HttpStatus.NOT_FOUND, "slot-not-found", "Unknown slot");
			case SLOT_EXISTS -> new ProblemType(HttpStatus.CONFLICT, "slot-exists", "Slot exists");
			case SLOT_ACTIVE -> new ProblemType(HttpStatus.CONFLICT, "slot-active", "Slot in use");
			case SLOT_NOT_INVALIDATED ->
				new ProblemType(HttpStatus.CONFLICT, "slot-not-invalidated", "Slot is not invalidated");
			case SLOT_MANAGED_ELSEWHERE ->
				new ProblemType(HttpStatus.CONFLICT, "slot-managed-elsewhere", "Slot managed by another");
			case NOT_SUPPORTED ->
				new ProblemType(HttpStatus.UNPROCESSABLE_CONTENT, "not-supported", "Not supported by this server");
			case INVALID_REQUEST -> new ProblemType(HttpStatus.BAD_REQUEST, "invalid-request", "Invalid request");
			case CONNECTOR_NOT_CONFIGURED ->
				new ProblemType(HttpStatus.NOT_FOUND, "connector-not-configured", "No connector configured");
			case INSUFFICIENT_PRIVILEGE ->
				new ProblemType(HttpStatus.FORBIDDEN, "insufficient-privilege", "Insufficient privilege");
			case CHANGE_IN_PROGRESS -> new ProblemType(HttpStatus.CONFLICT, "change-in-progress", "Change in progress");
			case CONFLICT -> new ProblemType(HttpStatus.CONFLICT, "conflict", "Conflict");
			case SLOT_CHANGED -> new ProblemType(HttpStatus.PRECONDITION_FAILED, "slot-changed", "Slot changed");
			case HEARTBEAT_DISABLED -> new ProblemType(HttpStatus.CONFLICT, "heartbeat-disabled", "Heartbeat disabled");
			case HEARTBEAT_BUSY -> new ProblemType(HttpStatus.SERVICE_UNAVAILABLE, "heartbeat-busy", "Heartbeat busy");
			case TARGET_UNAVAILABLE ->
				new ProblemType(HttpStatus.SERVICE_UNAVAILABLE, "target-unavailable", "Target unavailable");
			case TARGET_TIMEOUT -> new ProblemType(HttpStatus.GATEWAY_TIMEOUT, "target-timeout", "Target timed out");
			case DATABASE_ERROR -> new ProblemType(HttpStatus.BAD_GATEWAY, "database-error", "Database error");
			case CONNECTOR_RESTART_FAILED ->
				new ProblemType(HttpStatus.BAD_GATEWAY, "connector-restart-failed", "Connector restart failed");
		};
	}

	/**
	 * The HTTP status of a kind of problem, for callers that record it (the audit,
	 * dry-run refusals).
	 * @param kind the kind
	 * @return the status code
	 */
	public static int status(ProblemKind kind) {
		return of(kind).status().value();
	}

	/**
	 * The HTTP status of a failure that is no kind of problem (an unexpected exception),
	 * as the advice answers it.
	 * @return the status code
	 */
	public static int unexpectedStatus() {
		return HttpStatus.INTERNAL_SERVER_ERROR.value();
	}

	/**
	 * A kind of problem as the API answers it.
	 *
	 * @param status the HTTP status
	 * @param slug the type's last part, for example {@code target-not-found}
	 * @param title a short summary, the same for every problem of this type
	 */
	public record ProblemType(HttpStatus status, String slug, String title) {

		/**
		 * The problem type.
		 * @return {@code urn:slotkeeper:problem:<slug>}
		 */
		public URI type() {
			return URI.create(TYPE_PREFIX + this.slug);
		}

	}

}
