package io.slotkeeper.connect;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Set;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Predicate;
import java.util.stream.Collectors;

import io.slotkeeper.config.ConnectorProperties;

/**
 * Waiting for a connector to get somewhere during a handover: running (or failed anew),
 * or stopped with its tasks gone; its status read fresh every {@link #CHECK_EVERY}, at
 * most the connector's {@code running-timeout}.
 */
public final class ConnectorWaits {

	static final Duration CHECK_EVERY = Duration.ofMillis(250);

	private final ConnectorClient connectors;

	private final Clock clock;

	/**
	 * Creates the waits.
	 * @param connectors the Kafka Connect client
	 * @param clock when a wait ends
	 */
	public ConnectorWaits(ConnectorClient connectors, Clock clock) {
		this.connectors = connectors;
		this.clock = clock;
	}

	/**
	 * Waits until the connector and its tasks run, or it failed anew.
	 * @param connector the connector
	 * @param before its status before a restart, whose failures are not taken for new
	 * ones; {@code null} when none
	 * @return its status at the end
	 */
	// A failed task, or a Connect that cannot be read, will not run by itself: no point
	// waiting for it. But a restart
	// is asynchronous: until the status has moved on from the failures it had before,
	// they are the old ones.
	public ConnectorStatus running(ConnectorProperties connector, ConnectorStatus before) {
		Set<ConnectorStatus.Task> stale = failures(before);
		AtomicBoolean movedOn = new AtomicBoolean(stale.isEmpty());
		return until(connector, (status) -> {
			Set<ConnectorStatus.Task> failed = failures(status);
			movedOn.compareAndSet(false, !stale.containsAll(failed) || failed.isEmpty());
			return status.running() || status.error() != null
					|| (movedOn.get() && (!failed.isEmpty() || "FAILED".equals(status.state())));
		});
	}

	private static Set<ConnectorStatus.Task> failures(ConnectorStatus status) {
		return (status == null) ? Set.of()
				: status.tasks().stream().filter((task) -> "FAILED".equals(task.state())).collect(Collectors.toSet());
	}

	/**
	 * Waits until the connector is STOPPED with its tasks gone.
	 * @param connector the connector
	 */
	// Stopped means its tasks are gone too: Connect says STOPPED a moment before the last
	// task has let go.
	public void stopped(ConnectorProperties connector) {
		until(connector, (status) -> "STOPPED".equals(status.state()) && status.tasks().isEmpty());
	}

	/**
	 * Waits until the connector's status is what is waited for, at most its
	 * {@code running-timeout}.
	 * @param connector the connector
	 * @param done what is waited for
	 * @return its status at the end
	 */
	// Bounded by running-timeout: a connector that never gets there is reported with the
	// state it was in.
	public ConnectorStatus until(ConnectorProperties connector, Predicate<ConnectorStatus> done) {
		Instant deadline = this.clock.instant().plus(connector.runningTimeout());
		ConnectorStatus status = this.connectors.freshStatus(connector);
		while (!done.test(status) && this.clock.instant().isBefore(deadline) && ConnectorClient.pause(CHECK_EVERY)) {
			status = this.connectors.freshStatus(connector);
		}
		this.connectors.settled(connector);
		return status;
	}

}
