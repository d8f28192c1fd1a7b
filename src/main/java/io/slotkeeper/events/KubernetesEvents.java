package io.slotkeeper.events;

/**
 * Whether Kubernetes Events are written, and their recorder's life: stopped with the
 * application.
 *
 * @param recorder the recorder, {@code null} while events are off
 */
record KubernetesEvents(EventRecorder recorder) implements AutoCloseable {

	static final KubernetesEvents OFF = new KubernetesEvents(null);

	@Override
	public void close() {
		if (this.recorder != null) {
			this.recorder.close();
		}
	}

}
