package io.slotkeeper.fleet;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * Which instance should own each target of the fleet: rendezvous hashing with bounded
 * loads. Targets are taken in name order, each to the instance that scores highest for it
 * among those whose share is not full (at most ⌈targets ÷ instances⌉), so that every
 * instance that knows the same targets and instances computes the same plan, the shares
 * differ by one at most, and an instance that goes moves few targets besides its own. The
 * instances are those up for any target as last read there. Thread-safe: each target's
 * heartbeat reports what it read.
 */
public final class OwnershipPlan {

	private List<String> targets;

	private final Map<String, Set<Integer>> seen = new HashMap<>();

	private Set<Integer> instances = Set.of();

	private Map<String, Integer> owners = Map.of();

	/**
	 * A plan for a fleet's targets.
	 * @param targets every target's name
	 */
	public OwnershipPlan(List<String> targets) {
		this.targets = targets.stream().sorted().toList();
	}

	/**
	 * Adds a target that joined the fleet, and plans again.
	 * @param target the target's name
	 */
	synchronized void add(String target) {
		List<String> more = new ArrayList<>(this.targets);
		more.add(target);
		this.targets = more.stream().sorted().toList();
		this.owners = plan(this.targets, this.instances);
	}

	/**
	 * Removes a target that left the fleet, and plans again.
	 * @param target the target's name
	 */
	synchronized void remove(String target) {
		this.targets = this.targets.stream().filter((name) -> !name.equals(target)).toList();
		this.seen.remove(target);
		this.owners = plan(this.targets, this.instances);
	}

	/**
	 * Records which instances are up for a target, and plans again when the fleet's
	 * instances changed.
	 * @param target the target's name
	 * @param live the instances' keys
	 */
	synchronized void seen(String target, Set<Integer> live) {
		this.seen.put(target, live);
		Set<Integer> all = new TreeSet<>();
		this.seen.values().forEach(all::addAll);
		if (!all.equals(this.instances)) {
			this.instances = Set.copyOf(all);
			this.owners = plan(this.targets, this.instances);
		}
	}

	/**
	 * The instance that should own a target: the planned one while it is up for the
	 * target, else the one that scores highest among those that are (the plan catches up
	 * once every target has been read again).
	 * @param target the target's name
	 * @param live the instances up for the target
	 * @return the instance's key
	 */
	synchronized int owner(String target, Set<Integer> live) {
		Integer planned = this.owners.get(target);
		if (planned != null && live.contains(planned)) {
			return planned;
		}
		return live.stream()
			.max(Comparator.comparingLong((Integer key) -> Rendezvous.score(target, key)))
			.orElseThrow();
	}

	/**
	 * Plans who should own what.
	 * @param targets the targets' names
	 * @param instances the keys of the instances up
	 * @return the owner's key by target
	 */
	public static Map<String, Integer> plan(List<String> targets, Set<Integer> instances) {
		targets = targets.stream().sorted().toList();
		if (instances.isEmpty()) {
			return Map.of();
		}
		int share = (targets.size() + instances.size() - 1) / instances.size();
		Map<Integer, Integer> load = new HashMap<>();
		Map<String, Integer> owners = new HashMap<>();
		for (String target : targets) {
			List<Integer> ranked = new ArrayList<>(instances);
			ranked.sort(Comparator.comparingLong((Integer key) -> Rendezvous.score(target, key)).reversed());
			for (Integer key : ranked) {
				if (load.getOrDefault(key, 0) < share) {
					owners.put(target, key);
					load.merge(key, 1, Integer::sum);
					break;
				}
			}
		}
		return Map.copyOf(owners);
	}

}
