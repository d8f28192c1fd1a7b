package io.slotkeeper.target;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import io.slotkeeper.config.TargetProperties;

/**
 * The configured targets by name.
 */
public class Targets {

	private final Map<String, TargetProperties> byName = new LinkedHashMap<>();

	/**
	 * Collects the targets.
	 * @param targets the configured targets, names unique
	 */
	public Targets(List<TargetProperties> targets) {
		targets.forEach((target) -> this.byName.put(target.name(), target));
	}

	/**
	 * One target.
	 * @param name its name
	 * @return the target
	 * @throws TargetNotFoundException when none has that name
	 */
	public TargetProperties get(String name) {
		TargetProperties target = this.byName.get(name);
		if (target == null) {
			throw new TargetNotFoundException(name);
		}
		return target;
	}

	/**
	 * Every target, in configuration order.
	 * @return the targets
	 */
	public List<TargetProperties> all() {
		return List.copyOf(this.byName.values());
	}

}
