package io.slotkeeper.fleet;

import io.slotkeeper.support.TextDigests;

import java.util.UUID;

/**
 * This slot-keeper instance among those sharing targets: its identity and the 31-bit key
 * under which the others see it in each target's database (a presence lock on its
 * heartbeat session).
 *
 * @param id the identity: {@code slotkeeper.instance-id}, else the host name (the pod's
 * name on OpenShift) and the process id, else random
 * @param key the positive key derived from it
 */
public record Instance(String id, int key) {

	/**
	 * The instance for an identity.
	 * @param configured {@code slotkeeper.instance-id}, empty for the host name and
	 * process id, or a random identity
	 * @return the instance
	 */
	public static Instance of(String configured) {
		if (configured != null && !configured.isBlank()) {
			return named(configured);
		}
		String host = System.getenv("HOSTNAME");
		return named((host != null && !host.isBlank()) ? host + "/" + ProcessHandle.current().pid()
				: UUID.randomUUID().toString());
	}

	/**
	 * A random identity, for an instance that shares targets with nobody it knows.
	 * @return the instance
	 */
	public static Instance random() {
		return named(UUID.randomUUID().toString());
	}

	/**
	 * The instance with an identity.
	 * @param id the identity
	 * @return the instance
	 */
	public static Instance named(String id) {
		return new Instance(id, (int) (TextDigests.of("slot-keeper:instance:" + id) >>> 33));
	}

}
