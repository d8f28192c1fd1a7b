package io.slotkeeper.connect;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * A connector as Kafka Connect sees it.
 *
 * @param connector the connector's name
 * @param state the connector's state ({@code RUNNING}, {@code FAILED}, {@code PAUSED}…),
 * {@code null} when unknown
 * @param tasks its tasks
 * @param error why the status could not be read, {@code null} when it was
 * @param checkedAt when Kafka Connect was asked; in a listing, the slot poll's last
 * check, so its age says how old the state is; {@code null} when not asked yet
 */
public record ConnectorStatus(String connector, String state, List<Task> tasks, String error, Instant checkedAt) {

	private static final String STALE_OFFSET = "no longer available on the server";

	/**
	 * The status of a connector nobody asked Kafka Connect about yet.
	 * @param connector the connector's name
	 * @return a status without state, saying why
	 */
	public static ConnectorStatus notCheckedYet(String connector) {
		return new ConnectorStatus(connector, null, List.of(),
				"not checked yet: the first slot poll has not asked" + " Kafka Connect", null);
	}

	/**
	 * The status in Kafka Connect's {@code GET /connectors/{name}/status} body, which
	 * Strimzi copies verbatim into a {@code KafkaConnector}'s
	 * {@code status.connectorStatus}.
	 * @param connector the connector's name
	 * @param body the body: {@code connector.state} and {@code tasks[].id, state, trace}
	 * @param readAt when the body was read
	 * @return the status
	 */
	public static ConnectorStatus of(String connector, Map<String, Object> body, Instant readAt) {
		List<Task> tasks = new ArrayList<>();
		if (body.get("tasks") instanceof List<?> list) {
			for (Object each : list) {
				Map<String, Object> task = JsonObjects.asMap(each);
				Object id = task.get("id");
				tasks.add(new Task((id instanceof Number number) ? number.intValue() : -1, (String) task.get("state"),
						TaskTraces.summary((String) task.get("trace"))));
			}
		}
		return new ConnectorStatus(connector, stateOf(body), tasks, null, readAt);
	}

	/**
	 * The connector's state in a status body.
	 * @param body the body of {@code GET /connectors/{name}/status}
	 * @return {@code connector.state}, {@code null} when absent
	 */
	public static String stateOf(Map<String, Object> body) {
		Object state = JsonObjects.asMap(body.get("connector")).get("state");
		return (state != null) ? state.toString() : null;
	}

	/**
	 * Whether the connector and every task run, and it has at least one task.
	 * @return whether the pipeline streams
	 */
	public boolean running() {
		return "RUNNING".equals(this.state) && !this.tasks.isEmpty()
				&& this.tasks.stream().allMatch((task) -> "RUNNING".equals(task.state()));
	}

	/**
	 * Whether Kafka Connect reports the connector or one of its tasks FAILED;
	 * {@code false} when it was not read.
	 * @return whether something of it failed
	 */
	public boolean failed() {
		return this.error == null && ("FAILED".equals(this.state)
				|| this.tasks.stream().anyMatch((task) -> "FAILED".equals(task.state())));
	}

	/**
	 * Whether a task failed because its stored offset is older than its slot: Debezium's
	 * "…is trying to read change stream starting at …, but this is no longer available on
	 * the server", as after a recreate with the offsets left alone, or a failover where
	 * Debezium created the missing slot itself.
	 * @return whether a failed task's trace says so
	 */
	public boolean staleOffset() {
		return this.tasks.stream()
			.anyMatch((task) -> "FAILED".equals(task.state()) && task.trace() != null
					&& task.trace().contains(STALE_OFFSET));
	}

	/**
	 * The state in a few words: the connector's, then the first failed task's trace.
	 * @return for example
	 * {@code RUNNING, task 0 FAILED: The connector is trying to read change stream…}
	 */
	public String summary() {
		if (this.error != null) {
			return this.error;
		}
		return this.state + this.tasks.stream()
			.filter((task) -> !"RUNNING".equals(task.state()))
			.findFirst()
			.map((task) -> ", task " + task.id() + " " + task.state()
					+ ((task.trace() != null && !task.trace().isEmpty()) ? ": " + task.trace() : ""))
			.orElse("");
	}

	/**
	 * One task of the connector.
	 *
	 * @param id the task's number
	 * @param state its state
	 * @param trace the first line of a failed task's trace, such as "Unable to obtain
	 * valid replication slot"
	 */
	public record Task(int id, String state, String trace) {
	}

}
