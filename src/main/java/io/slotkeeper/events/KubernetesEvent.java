package io.slotkeeper.events;

/**
 * One thing slot-keeper did or found, as an {@code events.k8s.io/v1} Event tells it.
 *
 * @param regarding the object it is about: a {@code KafkaConnector}, or slot-keeper's own
 * Pod
 * @param type {@code Normal} or {@code Warning}
 * @param reason what happened, in UpperCamelCase ({@code SlotRecreated})
 * @param action what slot-keeper did or was doing, in UpperCamelCase ({@code Heal})
 * @param note one sentence for a person, cut to the API's 1 kB
 */
public record KubernetesEvent(Subject regarding, String type, String reason, String action, String note) {

	/** A note's most characters: the API refuses longer ones. */
	static final int MAX_NOTE = 1024;

	/** Something done or found that needs no one. */
	public static final String NORMAL = "Normal";

	/** Something someone may have to act on. */
	public static final String WARNING = "Warning";

	/**
	 * Cuts the note to what the API takes.
	 */
	public KubernetesEvent {
		if (note.length() > MAX_NOTE) {
			note = note.substring(0, MAX_NOTE - 1) + "…";
		}
	}

	/**
	 * The object an event is about, as the API references it.
	 *
	 * @param apiVersion its API version, such as {@code kafka.strimzi.io/v1} or
	 * {@code v1}
	 * @param kind its kind, such as {@code KafkaConnector} or {@code Pod}
	 * @param namespace its namespace
	 * @param name its name
	 * @param uid its {@code metadata.uid} (what {@code oc describe} matches on), empty
	 * when unknown
	 */
	public record Subject(String apiVersion, String kind, String namespace, String name, String uid) {

		/**
		 * A {@code KafkaConnector}'s API version until the recorder reads the one it is
		 * served at.
		 */
		public static final String STRIMZI = "kafka.strimzi.io/v1";

	}

}
