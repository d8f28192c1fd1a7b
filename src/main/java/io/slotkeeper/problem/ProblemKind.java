package io.slotkeeper.problem;

/**
 * What went wrong, as the domain says it. Each kind is either a <em>refusal</em> (the
 * request, as it stands, is not acceptable and nothing changed) or a <em>failure</em>
 * (the target or a dependency failed while slot-keeper tried). Only the API turns a kind
 * into an HTTP status, a type URI and a title.
 */
public enum ProblemKind {

	/** No target has the name asked for. */
	TARGET_NOT_FOUND(true),

	/** The target has no node of that name. */
	NODE_NOT_FOUND(true),

	/** The server has no slot of that name. */
	SLOT_NOT_FOUND(true),

	/** A slot of that name exists already. */
	SLOT_EXISTS(true),

	/** A consumer holds the slot. */
	SLOT_ACTIVE(true),

	/** A recreate was asked for a slot that is not invalidated. */
	SLOT_NOT_INVALIDATED(true),

	/**
	 * Another (Patroni, CloudNativePG, slot sync) drops and creates the slot: its policy
	 * says {@code managed-by}.
	 */
	SLOT_MANAGED_ELSEWHERE(true),

	/** The server's version (or role) cannot do this. */
	NOT_SUPPORTED(true),

	/** The request contradicts itself. */
	INVALID_REQUEST(true),

	/** The slot has no connector configured. */
	CONNECTOR_NOT_CONFIGURED(true),

	/** The role slot-keeper logs in as lacks a privilege. */
	INSUFFICIENT_PRIVILEGE(true),

	/** Another change to the target's slots holds its change lock. */
	CHANGE_IN_PROGRESS(true),

	/** The server refused because of the object's state (in use, duplicate). */
	CONFLICT(true),

	/**
	 * The slot is no longer the one the caller saw: its entity tag does not match
	 * {@code If-Match}.
	 */
	SLOT_CHANGED(true),

	/** Heartbeats are disabled for the target. */
	HEARTBEAT_DISABLED(true),

	/** A heartbeat already running did not end in time. */
	HEARTBEAT_BUSY(false),

	/** The target is down or refuses connections. */
	TARGET_UNAVAILABLE(false),

	/** The target did not answer in time. */
	TARGET_TIMEOUT(false),

	/** The target's server failed the call for another reason. */
	DATABASE_ERROR(false),

	/** Kafka Connect did not accept a connector restart. */
	CONNECTOR_RESTART_FAILED(false);

	private final boolean refusal;

	ProblemKind(boolean refusal) {
		this.refusal = refusal;
	}

	/**
	 * Whether this kind is a refusal: the request was not acceptable as it stands and
	 * nothing changed.
	 * @return {@code true} for a refusal, {@code false} for a failure of the target or a
	 * dependency
	 */
	public boolean refusal() {
		return this.refusal;
	}

}
