package io.slotkeeper.handover;

import java.time.Clock;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.slotkeeper.config.ConnectorOffsets;
import io.slotkeeper.config.ConnectorProperties;
import io.slotkeeper.connect.ChosenState;
import io.slotkeeper.connect.ConnectorClient;
import io.slotkeeper.connect.ConnectorLifecycle;
import io.slotkeeper.connect.ConnectorOutcome;
import io.slotkeeper.connect.ConnectorStatus;
import io.slotkeeper.connect.ConnectorWaits;

/**
 * Makes a slot's connector resume after the slot is recreated. With
 * {@code offsets: align} (default) or {@code reset}: before the drop, read the
 * connector's offsets and stop it; after the create, align its offsets to the new slot's
 * confirmed position (or delete them), resume it and wait until it and its tasks run.
 * Align was chosen as the default because it puts Debezium exactly where the new slot
 * starts whatever its {@code snapshot.mode}, where a reset makes {@code initial}
 * connectors snapshot everything again. Kafka Connect without the offsets API (before
 * 3.6) gets a restart, and the answer says the connector will likely fail and what to do.
 * A Kafka Connect that cannot be reached makes the handover
 * {@link ConnectorHandover#PENDING}: the caller keeps it and completes it later with
 * {@link #plan}, {@link Handover#readAndStop()} and {@link #complete}, which align to the
 * position it kept.
 */
public final class ConnectorHandovers {

	private static final Logger logger = LoggerFactory.getLogger(ConnectorHandovers.class);

	private static final String REVERTED = " (it was running again although it had been stopped: if Strimzi manages it,"
			+ " its operator reverts state changes made through the REST API; configure connector.strimzi with its"
			+ " KafkaConnector's namespace and name instead of url)";

	private final ConnectorClient connectors;

	private final ConnectorLifecycle lifecycle;

	private final HandoverLog log;

	private final ConnectorWaits waits;

	private final Clock clock;

	/**
	 * Creates the handovers.
	 * @param connectors the Kafka Connect client
	 * @param log where the last handover of each connector is kept
	 * @param clock when waits end and offsets were written
	 */
	public ConnectorHandovers(ConnectorClient connectors, HandoverLog log, Clock clock) {
		this.clock = clock;
		this.connectors = connectors;
		this.lifecycle = new ConnectorLifecycle(connectors);
		this.log = log;
		this.waits = new ConnectorWaits(connectors, clock);
	}

	/**
	 * The handover of one recreate; nothing is called yet.
	 * @param connector the slot's connector
	 * @return the handover, whose {@link Handover#readAndStop()} runs before the drop
	 */
	public Handover plan(ConnectorProperties connector) {
		return new Handover(connector, this.lifecycle, null);
	}

	/**
	 * The handover of one recreate that an earlier attempt began: the state the user
	 * chose was read then, before slot-keeper stopped the connector, and is what it is
	 * put back into.
	 * @param connector the slot's connector
	 * @param chosen the state the user chose, {@code null} when the earlier attempt did
	 * not read it
	 * @return the handover
	 */
	public Handover plan(ConnectorProperties connector, ChosenState chosen) {
		return new Handover(connector, this.lifecycle, chosen);
	}

	/**
	 * After the slot was created again: align or reset the offsets, resume, and wait
	 * until it runs; or restart.
	 * @param handover the handover, stopped or not
	 * @param newPosition the new slot's confirmed position as a byte position (Debezium's
	 * {@code lsn}), {@code null} when it has none
	 * @return what became of the connector; failures are reported, never thrown
	 */
	public ConnectorHandover complete(Handover handover, Long newPosition) {
		return complete(handover, () -> newPosition);
	}

	/**
	 * As {@link #complete(Handover, Long)}, with the position read only once the
	 * connector is STOPPED: a connector that ran on meanwhile (a worker that came back
	 * resumes it from its stale offset, and the server streams from the slot's start) has
	 * moved the slot on, and Debezium fails a task whose offset is behind its slot.
	 * @param handover the handover, stopped or not
	 * @param positionOnceStopped the position to align to, asked after the connector
	 * stopped
	 * @return what became of the connector; failures are reported, never thrown
	 * @throws IllegalStateException when the handover was completed already: a second
	 * completion would stop and move a connector that already reads the new slot
	 */
	public ConnectorHandover complete(Handover handover, Supplier<Long> positionOnceStopped) {
		if (handover.phase() instanceof HandoverPhase.Completed) {
			throw new IllegalStateException("the handover of " + handover.connectorName() + " was completed already");
		}
		Integer restartsBefore = handover.restartsBefore();
		ConnectorHandover done = AutoRestarts.compared(handOver(handover, positionOnceStopped), restartsBefore,
				this.lifecycle.autoRestarts(handover.connector()));
		handover.completed(done);
		this.log.record(done);
		// A pending one is said once by whoever kept it (the heal's log line and audit),
		// not at every later attempt.
		if (!done.running() && !done.pending()) {
			logger.warn("Connector '{}' is not running after its slot was recreated: {}", done.connector(),
					done.describe());
		}
		return done;
	}

	/**
	 * After a recreate that failed: resumes a connector the handover stopped, its offsets
	 * untouched.
	 * @param handover the handover
	 */
	public void abandon(Handover handover) {
		if (handover.stopped()) {
			ConnectorLifecycle.Answer resume = this.lifecycle.restore(handover.connector(), handover.chosenState());
			logger.warn("The recreate of the slot of connector '{}' failed after the connector was stopped: {}",
					handover.connector().name(),
					resume.ok() ? "it was put back as it was (" + handover.chosenState().lowerCase() + ")"
							: "resuming it failed too (" + resume.error() + "): resume it by hand");
		}
	}

	private ConnectorHandover handOver(Handover handover, Supplier<Long> positionOnceStopped) {
		HandoverPhase phase = handover.phase();
		if (phase instanceof HandoverPhase.Unreachable unreachable) {
			return pending(handover.connector(), unreachable.error(), phase);
		}
		if (phase instanceof HandoverPhase.Stopped stopped) {
			return changeOffsets(handover, stopped, positionOnceStopped);
		}
		return restart(handover, phase);
	}

	// Its offsets left alone (as configured, Debezium healing itself, or refused):
	// restarted, unless its user stopped it.
	private ConnectorHandover restart(Handover handover, HandoverPhase phase) {
		ConnectorProperties connector = handover.connector();
		String selfHealing = (phase instanceof HandoverPhase.SelfHealing healing) ? healing.reason() : null;
		HandoverPhase.Refused refused = (phase instanceof HandoverPhase.Refused r) ? r : null;
		List<Map<String, Object>> offsetsBefore = (refused != null) ? refused.offsetsBefore() : null;
		// A refusal is only read with offsets to align or reset: left alone, nothing was
		// asked.
		String warning = (refused != null) ? refused.warning() : null;
		ConnectorStatus before = this.connectors.status(connector);
		ChosenState chosen = (handover.chosenState() != null) ? handover.chosenState()
				: this.lifecycle.chosenState(connector);
		if (chosen != null && chosen != ChosenState.RUNNING) {
			// A restart would start it.
			return new ConnectorHandover(connector.name(), "restart", selfHealing, false, offsetsBefore, null, before,
					warning, chosen.lowerCase(), phase.name());
		}
		ConnectorOutcome restart = this.connectors.restart(connector);
		if (!restart.restarted() && restart.status() == null) {
			return pending(connector, restart.detail(), phase);
		}
		if (!restart.restarted()) {
			warning = ((warning != null) ? warning + "; " : "") + "restart failed: " + restart.detail();
		}
		ConnectorStatus state = this.waits.running(connector, before);
		return new ConnectorHandover(connector.name(), "restart", selfHealing, state.running(), offsetsBefore, null,
				state, warning, null, phase.name());
	}

	// Stopped with its offsets read: aligned to the new slot (or reset), then put back as
	// its user had it.
	private ConnectorHandover changeOffsets(Handover handover, HandoverPhase.Stopped stopped,
			Supplier<Long> positionOnceStopped) {
		ConnectorProperties connector = handover.connector();
		String warning = null;
		this.waits.stopped(connector);
		ConnectorLifecycle.Answer change = (connector.offsets() == ConnectorOffsets.ALIGN) ? OffsetAlignment
			.align(this.lifecycle, connector, stopped, positionOnceStopped.get(), this.clock.instant())
				: this.lifecycle.resetOffsets(connector);
		if (change != null && change.unreachable()) {
			return pending(connector, change.error(), stopped);
		}
		if (change != null && !change.ok()) {
			warning = ConnectorHandover.OFFSETS_NOT_CHANGED + change.error() + "; the connector may fail to stream"
					+ (revertedBehindUs(connector, change) ? REVERTED : "");
		}
		List<Map<String, Object>> after = this.lifecycle.listedOffsets(connector);
		ChosenState chosen = stopped.chosen();
		ConnectorLifecycle.Answer resume = this.lifecycle.restore(connector, chosen);
		if (resume.unreachable()) {
			return pending(connector, resume.error(), stopped);
		}
		if (!resume.ok()) {
			warning = ((warning != null) ? warning + "; " : "") + "resume failed: " + resume.error();
		}
		String method = connector.offsets().name().toLowerCase();
		if (chosen != ChosenState.RUNNING) {
			// The user's stop or pause stands: aligned, and left as it was.
			ConnectorStatus state = this.waits.until(connector,
					(status) -> chosen.name().equals(status.state()) || status.error() != null);
			return new ConnectorHandover(connector.name(), method, null, false, stopped.offsetsBefore(), after, state,
					warning, chosen.lowerCase(), stopped.name());
		}
		ConnectorStatus state = this.waits.running(connector, null);
		return new ConnectorHandover(connector.name(), method, null, state.running(), stopped.offsetsBefore(), after,
				state, warning, null, stopped.name());
	}

	// Kafka Connect refuses an offsets change of a connector that is not STOPPED: after
	// slot-keeper's own stop answered,
	// that is something driving it back, such as the Strimzi operator reconciling its
	// KafkaConnector resource.
	private static boolean revertedBehindUs(ConnectorProperties connector, ConnectorLifecycle.Answer change) {
		return !connector.managedByStrimzi() && Integer.valueOf(400).equals(change.status()) && change.error() != null
				&& change.error().contains("STOPPED state");
	}

	// Connect down is the usual order of things (the consumer's outage is why the slot
	// was lost): a restart or a
	// stale offset now would leave the task FAILED for good, so the handover waits for
	// Connect to answer.
	private ConnectorHandover pending(ConnectorProperties connector, String unreachable, HandoverPhase phase) {
		return new ConnectorHandover(connector.name(), ConnectorHandover.PENDING, null, false, null, null, null,
				unreachable + ": the handover is kept and completed once Kafka Connect answers", null, phase.name());
	}

}
