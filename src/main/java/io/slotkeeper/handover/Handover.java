package io.slotkeeper.handover;

import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

import io.slotkeeper.config.ConnectorOffsets;
import io.slotkeeper.config.ConnectorProperties;
import io.slotkeeper.connect.ChosenState;
import io.slotkeeper.connect.ConnectorLifecycle;

/**
 * One recreate's handover of its connector, moving through its {@link HandoverPhase
 * phases}: planned; {@link #readAndStop()} runs before the drop, under the change lock,
 * and moves it to what it could do; {@link ConnectorHandovers#complete} completes it
 * after the create.
 */
public final class Handover {

	private static final String NO_OFFSETS_API = "Kafka Connect has no offsets API (3.6+ needed) or refused it, so the"
			+ " connector was only restarted: a Debezium task whose offset predates the new slot fails with \"no longer"
			+ " available on the server\"; reset its offsets by hand or start it with a snapshot mode";

	private static final String MISMATCH_STRATEGY = "offset.mismatch.strategy";

	private static final Set<String> SELF_HEALING = Set.of("trust_slot", "trust_greater_lsn");

	private static final String SELF_HEALING_STEP = "stop connector %s and read its offsets (unless its Debezium"
			+ " offset.mismatch.strategy is trust_slot or trust_greater_lsn: then only restart %s after the create)";

	private final ConnectorLifecycle lifecycle;

	private final ConnectorProperties connector;

	private final ChosenState chosenEarlier;

	private volatile HandoverPhase phase = new HandoverPhase.Planned();

	Handover(ConnectorProperties connector, ConnectorLifecycle lifecycle, ChosenState chosenEarlier) {
		this.connector = connector;
		this.lifecycle = lifecycle;
		this.chosenEarlier = chosenEarlier;
	}

	ConnectorProperties connector() {
		return this.connector;
	}

	/**
	 * The connector's name.
	 * @return the name
	 */
	public String connectorName() {
		return this.connector.name();
	}

	/**
	 * Where the handover stands.
	 * @return its phase
	 */
	public HandoverPhase phase() {
		return this.phase;
	}

	/**
	 * Whether {@link #readAndStop()} stopped the connector.
	 * @return whether it did
	 */
	public boolean stopped() {
		return this.phase instanceof HandoverPhase.Stopped;
	}

	/**
	 * The state the connector's user chose for it, as read before slot-keeper stopped it
	 * (or as kept by an earlier attempt of the same handover): the state the handover
	 * leaves it in.
	 * @return the choice, {@code null} while it was not read
	 */
	public ChosenState chosenState() {
		return (this.phase instanceof HandoverPhase.Stopped stopped) ? stopped.chosen() : this.chosenEarlier;
	}

	/**
	 * Why Kafka Connect could not be reached before the change, {@code null} when it
	 * answered: the handover is then kept to be completed once it answers, rather than
	 * reported as a Connect without the offsets API.
	 * @return what the call failed with
	 */
	public String unreachable() {
		return (this.phase instanceof HandoverPhase.Unreachable unreachable) ? unreachable.error() : null;
	}

	// The operator's count before slot-keeper changed anything: read with the connector,
	// or now when it was not read.
	Integer restartsBefore() {
		return (this.phase instanceof HandoverPhase.Read read) ? read.restartsBefore()
				: this.lifecycle.autoRestarts(this.connector);
	}

	void completed(ConnectorHandover outcome) {
		this.phase = new HandoverPhase.Completed(this.phase, outcome);
	}

	/**
	 * What the handover does, for a dry run.
	 * @return the steps before the drop and after the create
	 */
	public List<String> describe() {
		String name = this.connector.managedByStrimzi() ? this.connector.name() + " (through its KafkaConnector "
				+ this.connector.strimzi().namespace() + "/" + this.connector.strimzi().name() + ")"
				: this.connector.name();
		return switch (this.connector.offsets()) {
			case LEAVE -> List.of("then restart connector " + name + " and its failed tasks");
			case ALIGN -> List.of(SELF_HEALING_STEP.formatted(name, name), "then set the offsets of " + name
					+ " to the new slot's confirmed position, resume it and wait until it runs");
			case RESET -> List.of(SELF_HEALING_STEP.formatted(name, name),
					"then delete the offsets of " + name + ", resume it and wait until it runs");
		};
	}

	/**
	 * Reads the connector's configuration and offsets and stops it, unless its offsets
	 * are left alone or Debezium heals itself: moves the handover from
	 * {@link HandoverPhase.Planned} to the phase that found. Never throws: a refusal is
	 * kept as {@link HandoverPhase.Refused}, and the connector is then restarted after
	 * the create instead; a Kafka Connect that cannot be reached as
	 * {@link HandoverPhase.Unreachable}.
	 */
	public void readAndStop() {
		this.phase = read();
	}

	private HandoverPhase read() {
		Integer restarts = this.lifecycle.autoRestarts(this.connector);
		if (this.connector.offsets() == ConnectorOffsets.LEAVE) {
			return new HandoverPhase.LeftAlone(restarts);
		}
		ConnectorLifecycle.Answer config = this.lifecycle.config(this.connector);
		if (config.unreachable()) {
			return new HandoverPhase.Unreachable(config.error(), restarts);
		}
		Map<String, Object> configBefore = config.object();
		Object strategy = configBefore.get(MISMATCH_STRATEGY);
		if (strategy != null && SELF_HEALING.contains(strategy.toString().strip().toLowerCase(Locale.ROOT))) {
			return new HandoverPhase.SelfHealing("Debezium's " + MISMATCH_STRATEGY + "=" + strategy + " resumes from"
					+ " the new slot by itself: restarted only, offsets left alone", restarts);
		}
		ConnectorLifecycle.Answer before = this.lifecycle.offsets(this.connector);
		if (before.unreachable()) {
			return new HandoverPhase.Unreachable(before.error(), restarts);
		}
		if (!before.ok()) {
			return new HandoverPhase.Refused(NO_OFFSETS_API + " (" + before.error() + ")", null, restarts);
		}
		List<Map<String, Object>> listed = ConnectorLifecycle.entries(before.body());
		List<Map<String, Object>> offsetsBefore = (listed != null) ? listed : List.of();
		ChosenState chosen = (this.chosenEarlier != null) ? this.chosenEarlier
				: this.lifecycle.chosenState(this.connector);
		if (chosen == null) {
			return new HandoverPhase.Unreachable(
					"the state of connector " + this.connector.name() + " could not be read", restarts);
		}
		ConnectorLifecycle.Answer stop = this.lifecycle.stop(this.connector);
		if (stop.unreachable()) {
			return new HandoverPhase.Unreachable(stop.error(), restarts);
		}
		if (!stop.ok()) {
			return new HandoverPhase.Refused(NO_OFFSETS_API + " (stop: " + stop.error() + ")", offsetsBefore, restarts);
		}
		return new HandoverPhase.Stopped(chosen, configBefore, offsetsBefore, restarts);
	}

}
