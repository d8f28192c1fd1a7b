package io.slotkeeper.watching;

import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;

import io.micrometer.core.instrument.Tags;

import io.slotkeeper.config.SlotPolicyProperties;
import io.slotkeeper.connect.ConnectorAudit;
import io.slotkeeper.connect.ConnectorClient;
import io.slotkeeper.connect.ConnectorLifecycle;
import io.slotkeeper.connect.ConnectorSettingsJudge;
import io.slotkeeper.connect.ConnectorStatus;
import io.slotkeeper.connect.FoundConnector;
import io.slotkeeper.fleet.Target;
import io.slotkeeper.handover.HandoverLog;
import io.slotkeeper.replication.ReplicationSlot;
import io.slotkeeper.sessions.ServerVersion;
import io.slotkeeper.settings.SettingFinding;

/**
 * The state of every slot's connector as the last slot poll of its target asked Kafka
 * Connect, so that a listing never waits for Kafka Connect: a slow or hung one delays
 * only its own target's poll. With it, each connector's configuration as last read (once
 * a minute) and judged against what slot-keeper does to its slot.
 */
public final class ConnectorStates {

	// A configuration changes rarely: read once a minute, not with every status.
	static final Duration CONFIG_EVERY = Duration.ofMinutes(1);

	private final ConnectorClient connectors;

	private final HandoverLog handovers;

	private final Map<String, Map<String, ConnectorStatus>> byTarget = new ConcurrentHashMap<>();

	private final Map<String, Map<String, ConnectorAudit>> audits = new ConcurrentHashMap<>();

	private final Clock clock;

	ConnectorStates(ConnectorClient connectors, HandoverLog handovers, Clock clock) {
		this.connectors = connectors;
		this.clock = clock;
		this.handovers = handovers;
	}

	/**
	 * The client the states are read with.
	 * @return the client
	 */
	public ConnectorClient client() {
		return this.connectors;
	}

	/**
	 * Reads the state of each of a target's connectors again, and its configuration when
	 * due.
	 * @param target the target
	 * @param slots its slots, as the poll read them
	 */
	public void refresh(Target target, List<ReplicationSlot> slots) {
		Map<String, ConnectorStatus> states = new ConcurrentHashMap<>();
		Map<String, ConnectorAudit> was = this.audits.getOrDefault(target.name(), Map.of());
		Map<String, ConnectorAudit> audited = new ConcurrentHashMap<>();
		target.slots().policies().forEach((policy) -> {
			if (policy.connector() != null) {
				states.put(policy.name(), this.connectors.status(policy.connector()));
				audited.put(policy.name(), audit(target, policy, slots, was.get(policy.name())));
			}
		});
		this.byTarget.put(target.name(), states);
		this.audits.put(target.name(), audited);
	}

	private ConnectorAudit audit(Target target, SlotPolicyProperties policy, List<ReplicationSlot> slots,
			ConnectorAudit last) {
		String name = policy.connector().name();
		if (last != null && last.connector().equals(name) && last.readAt() != null && last.error() == null
				&& Duration.between(last.readAt(), this.clock.instant()).compareTo(CONFIG_EVERY) < 0) {
			return last;
		}
		ConnectorLifecycle.Answer answer = this.connectors.config(policy.connector());
		if (!answer.ok() || !(answer.body() instanceof Map<?, ?> body)) {
			String error = "its configuration could not be read: " + answer.error();
			return (last != null && last.connector().equals(name))
					? new ConnectorAudit(name, last.settings(), last.findings(), last.readAt(), error)
					: new ConnectorAudit(name, Map.of(), List.of(), null, error);
		}
		Map<String, String> config = new TreeMap<>();
		body.forEach((key, value) -> config.put(String.valueOf(key), (value != null) ? String.valueOf(value) : null));
		String plugin = slots.stream()
			.filter((slot) -> policy.name().equals(slot.slotName()))
			.findFirst()
			.map(ReplicationSlot::plugin)
			.orElse(null);
		ServerVersion version = target.primary().version();
		List<SettingFinding> findings = ConnectorSettingsJudge.judge(config,
				new ConnectorSettingsJudge.Slot(policy.name(), plugin, target.properties().heartbeat(),
						policy.connector().offsets(), policy.resnapshot(), (version != null) ? version.number() : 0));
		return new ConnectorAudit(name, FoundConnector.kept(config), findings, this.clock.instant(), null);
	}

	/**
	 * A slot's connector as last checked.
	 * @param target the target's name
	 * @param slot the slot's name
	 * @return its status with {@code checkedAt}, empty before the first check
	 */
	public Optional<ConnectorStatus> of(String target, String slot) {
		return Optional.ofNullable(this.byTarget.getOrDefault(target, Map.of()).get(slot));
	}

	/**
	 * A slot's connector's configuration as last read and judged.
	 * @param target the target's name
	 * @param slot the slot's name
	 * @return the audit, empty before the first read
	 */
	public Optional<ConnectorAudit> audit(String target, String slot) {
		return Optional.ofNullable(this.audits.getOrDefault(target, Map.of()).get(slot));
	}

	/**
	 * A target's connectors' findings, for the gauges.
	 * @param target the target's name
	 * @return the findings by the tags of the connector they are about
	 */
	public Map<Tags, List<SettingFinding>> findings(String target) {
		Map<Tags, List<SettingFinding>> findings = new java.util.HashMap<>();
		this.audits.getOrDefault(target, Map.of())
			.forEach((slot, audit) -> findings
				.put(Tags.of("target", target, "slot", slot, "connector", audit.connector()), audit.findings()));
		return findings;
	}

	/**
	 * The slots whose connector a recreate left not running and that still does not run,
	 * as last checked.
	 * @param target the target
	 * @return by slot, what the last handover came to, its warning and trace included
	 */
	public Map<String, String> notRunningAfterHandover(Target target) {
		Map<String, String> slots = new TreeMap<>();
		target.slots()
			.policies()
			.stream()
			.filter((policy) -> policy.connector() != null)
			.forEach((policy) -> this.handovers.last(policy.connector().name())
				.filter((handover) -> !handover.running())
				.filter((handover) -> of(target.name(), policy.name()).map((now) -> !now.running()).orElse(true))
				.ifPresent((handover) -> slots.put(policy.name(), handover.describe())));
		return slots;
	}

	void forget(String target) {
		this.byTarget.remove(target);
		this.audits.remove(target);
	}

}
