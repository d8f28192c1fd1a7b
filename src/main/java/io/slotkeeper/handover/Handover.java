package io.slotkeeper.connect;

import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

import io.slotkeeper.config.ConnectorOffsets;
import io.slotkeeper.config.ConnectorProperties;

/**
 * One recreate's handover of its connector: {@link #readAndStop()} runs before the drop, under the change lock, and
 * records what it could do.
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

	private volatile boolean stopped;

	private volatile List<Map<String, Object>> offsetsBefore;

	private volatile String warning;

	private volatile String unreachable;

	private volatile String selfHealing;

	private volatile Map<String, Object> configBefore = Map.of();

	private volatile ChosenState chosen;

	private volatile Integer autoRestartsBefore;

	private volatile boolean autoRestartsRead;

	Handover(ConnectorProperties connector, ConnectorLifecycle lifecycle, ChosenState chosen) {
		this.connector = connector;
		this.lifecycle = lifecycle;
		this.chosen = chosen;
	}

	ConnectorProperties connector() {
		return this.connector;
	}

	// Read once, before slot-keeper changes anything: what the handover is then compared with.
	Integer autoRestartsBefore() {
		if (!this.autoRestartsRead) {
			this.autoRestartsBefore = this.lifecycle.autoRestarts(this.connector);
			this.autoRestartsRead = true;
		}
		return this.autoRestartsBefore;
	}

	/**
	 * The connector's name.
	 * @return the name
	 */
	public String connectorName() {
		return this.connector.name();
	}

	/**
	 * Whether {@link #readAndStop()} stopped the connector.
	 * @return whether it did
	 */
	public boolean stopped() {
		return this.stopped;
	}

	/**
	 * The state the connector's user chose for it, as read before slot-keeper stopped it (or as kept by an earlier
	 * attempt of the same handover): the state the handover leaves it in.
	 * @return the choice, {@code null} before {@link #readAndStop()} read it
	 */
	public ChosenState chosenState() {
		return this.chosen;
	}

	List<Map<String, Object>> offsetsBefore() {
		return this.offsetsBefore;
	}

	String warning() {
		return this.warning;
	}

	/**
	 * Why Kafka Connect could not be reached before the drop, {@code null} when it answered: the handover is then
	 * kept to be completed once it answers, rather than reported as a Connect without the offsets API.
	 * @return what the call failed with
	 */
	public String unreachable() {
		return this.unreachable;
	}

	/**
	 * The connector's configuration as {@link #readAndStop()} read it, so that the handover asks Kafka Connect for it once.
	 * @return its members, empty when it was not read
	 */
	Map<String, Object> configBefore() {
		return this.configBefore;
	}

	/**
	 * Why the connector resumes from the new slot by itself, {@code null} unless its configuration says so: Debezium
	 * 3.4+ with {@code offset.mismatch.strategy} {@code trust_slot} or {@code trust_greater_lsn} moves a stored offset
	 * that predates the slot up to it, so a restart is the whole handover and its offsets are left alone.
	 * @return the reason, for the answer and the audit
	 */
	String selfHealing() {
		return this.selfHealing;
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
	 * Reads the connector's configuration and offsets and stops it, unless its offsets are left alone or Debezium
	 * heals itself ({@link #selfHealing()}). Never throws: a refusal is kept
	 * as the warning, and the connector is then restarted after the create instead; a Kafka Connect that cannot be
	 * reached is kept as {@link #unreachable()}.
	 */
	public void readAndStop() {
		autoRestartsBefore();
		if (this.connector.offsets() == ConnectorOffsets.LEAVE) {
			return;
		}
		ConnectorLifecycle.Answer config = this.lifecycle.config(this.connector);
		if (config.unreachable()) {
			this.unreachable = config.error();
			return;
		}
		this.configBefore = config.object();
		Object strategy = this.configBefore.get(MISMATCH_STRATEGY);
		if (strategy != null && SELF_HEALING.contains(strategy.toString().strip().toLowerCase(Locale.ROOT))) {
			this.selfHealing = "Debezium's " + MISMATCH_STRATEGY + "=" + strategy + " resumes from the new slot by"
					+ " itself: restarted only, offsets left alone";
			return;
		}
		ConnectorLifecycle.Answer before = this.lifecycle.offsets(this.connector);
		if (before.unreachable()) {
			this.unreachable = before.error();
			return;
		}
		if (!before.ok()) {
			this.warning = NO_OFFSETS_API + " (" + before.error() + ")";
			return;
		}
		List<Map<String, Object>> listed = ConnectorLifecycle.entries(before.body());
		this.offsetsBefore = (listed != null) ? listed : List.of();
		if (this.chosen == null) {
			this.chosen = this.lifecycle.chosenState(this.connector);
			if (this.chosen == null) {
				this.unreachable = "the state of connector " + this.connector.name() + " could not be read";
				return;
			}
		}
		ConnectorLifecycle.Answer stop = this.lifecycle.stop(this.connector);
		if (stop.unreachable()) {
			this.unreachable = stop.error();
			return;
		}
		if (!stop.ok()) {
			this.warning = NO_OFFSETS_API + " (stop: " + stop.error() + ")";
			return;
		}
		this.stopped = true;
	}

}
