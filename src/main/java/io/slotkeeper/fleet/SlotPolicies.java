package io.slotkeeper.fleet;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import io.slotkeeper.config.ConnectorProperties;
import io.slotkeeper.config.SlotPolicyProperties;
import io.slotkeeper.config.TargetProperties;
import io.slotkeeper.problem.ProblemException;
import io.slotkeeper.problem.ProblemKind;

/**
 * The slot policies of one target: those configured in
 * {@code slotkeeper.targets[].slots}, and those made for the connectors that discovery
 * found consuming its slots, replaced at each discovery.
 */
public final class SlotPolicies {

	private final TargetProperties target;

	private volatile Map<String, SlotPolicyProperties> found = Map.of();

	private volatile boolean foundAll = true;

	SlotPolicies(TargetProperties target) {
		this.target = target;
	}

	/**
	 * The policy of a slot, if it has one: the configured one, with what a discovered
	 * connector of the slot brings where it says nothing
	 * ({@link SlotPolicyProperties#over}), or the one made for a discovered connector.
	 * @param slot the slot's name
	 * @return the policy
	 */
	public Optional<SlotPolicyProperties> policy(String slot) {
		SlotPolicyProperties discovered = this.found.get(slot);
		Optional<SlotPolicyProperties> configured = this.target.slotPolicy(slot);
		return (discovered != null) ? Optional.of(configured.map((own) -> own.over(discovered)).orElse(discovered))
				: configured;
	}

	/**
	 * Every slot's policy, as {@link #policy(String)} gives it: the configured slots'
	 * first.
	 * @return the policies
	 */
	public List<SlotPolicyProperties> policies() {
		List<SlotPolicyProperties> policies = new ArrayList<>();
		this.target.slots().forEach((own) -> policies.add(policy(own.name()).orElseThrow()));
		this.found.values()
			.stream()
			.filter((discovered) -> this.target.slotPolicy(discovered.name()).isEmpty())
			.forEach(policies::add);
		return policies;
	}

	/**
	 * Replaces the policies made for the connectors discovered consuming this target's
	 * slots.
	 * @param policies by slot, each with its discovered connector
	 * @param complete whether every source of connectors has been listed since start, so
	 * that a connector not among them is known not to consume the target's slots
	 */
	public void discovered(Map<String, SlotPolicyProperties> policies, boolean complete) {
		this.found = Map.copyOf(policies);
		this.foundAll = complete;
	}

	/**
	 * Whether a slot's connector, if it has none, is known to have none: always for
	 * configured connectors, and for discovered ones once every source has been listed
	 * (after a restart while Kafka Connect is down, not yet).
	 * @return whether the policies are complete
	 */
	public boolean connectorsKnown() {
		return this.foundAll;
	}

	/**
	 * Whether a slot's connector is a discovered one rather than one its configured
	 * policy names.
	 * @param slot the slot's name
	 * @return whether the connector was found by discovery
	 */
	public boolean connectorDiscovered(String slot) {
		return this.found.containsKey(slot)
				&& this.target.slotPolicy(slot).map((own) -> own.connector() == null).orElse(true);
	}

	/**
	 * The connector that consumes a slot, if one is configured or discovered.
	 * @param slot the slot's name
	 * @return the connector
	 */
	public Optional<ConnectorProperties> connectorOf(String slot) {
		return policy(slot).map(SlotPolicyProperties::connector);
	}

	/**
	 * The connector that consumes a slot.
	 * @param slot the slot's name
	 * @return the connector
	 * @throws ProblemException ({@link ProblemKind#CONNECTOR_NOT_CONFIGURED}) when none
	 * is configured or discovered
	 */
	public ConnectorProperties connector(String slot) {
		return connectorOf(slot).orElseThrow(() -> new ProblemException(ProblemKind.CONNECTOR_NOT_CONFIGURED,
				"Slot '" + slot + "' of target '" + this.target.name()
						+ "' has no connector in slotkeeper.targets[].slots," + " and none was discovered.")
			.with("target", this.target.name())
			.with("slot", slot));
	}

}
