package io.slotkeeper.connect;

import java.util.List;

/**
 * A connector as Kafka Connect sees it.
 *
 * @param connector the connector's name
 * @param state the connector's state ({@code RUNNING}, {@code FAILED}, {@code PAUSED}…), {@code null} when unknown
 * @param tasks its tasks
 * @param error why the status could not be read, {@code null} when it was
 */
public record ConnectorStatus(String connector, String state, List<Task> tasks, String error) {

	/**
	 * One task of the connector.
	 * @param id the task's number
	 * @param state its state
	 * @param trace the first line of a failed task's trace, such as "Unable to obtain valid replication slot"
	 */
	public record Task(int id, String state, String trace) {
	}

}
