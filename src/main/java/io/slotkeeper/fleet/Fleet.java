package io.slotkeeper.fleet;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import io.slotkeeper.config.TargetProperties;
import io.slotkeeper.problem.ProblemException;
import io.slotkeeper.problem.ProblemKind;

/**
 * Every configured target at run time, by name, in configuration order: the one registry of targets.
 */
public final class Fleet implements AutoCloseable {

	private final Map<String, Target> byName = new LinkedHashMap<>();

	private final Instance instance;

	/**
	 * Builds the targets of an instance with a random identity; nothing connects until a node is used.
	 * @param targets the configured targets, names unique
	 * @param connector opens every session
	 */
	public Fleet(List<TargetProperties> targets, NodeConnector connector) {
		this(targets, connector, Instance.random());
	}

	/**
	 * Builds the targets; nothing connects until a node is used.
	 * @param targets the configured targets, names unique
	 * @param connector opens every session
	 * @param instance this instance, among those sharing the targets
	 */
	public Fleet(List<TargetProperties> targets, NodeConnector connector, Instance instance) {
		this.instance = instance;
		OwnershipPlan plan = new OwnershipPlan(targets.stream().map(TargetProperties::name).toList());
		Presences presences = new Presences();
		targets.forEach((target) -> this.byName.put(target.name(),
				new Target(target, connector, instance, plan, presences)));
	}

	/**
	 * This instance, among those sharing the targets.
	 * @return its identity
	 */
	public Instance instance() {
		return this.instance;
	}

	/**
	 * One target.
	 * @param name its name
	 * @return the target
	 * @throws ProblemException ({@link ProblemKind#TARGET_NOT_FOUND}) when none has that name
	 */
	public Target get(String name) {
		Target target = this.byName.get(name);
		if (target == null) {
			throw new ProblemException(ProblemKind.TARGET_NOT_FOUND,
					"No target named '" + name + "' is configured in slotkeeper.targets.")
				.with("target", name);
		}
		return target;
	}

	/**
	 * Every target, in configuration order.
	 * @return the targets
	 */
	public List<Target> all() {
		return List.copyOf(this.byName.values());
	}

	/**
	 * Closes every node's pool.
	 */
	@Override
	public void close() {
		this.byName.values().forEach(Target::close);
	}

}
