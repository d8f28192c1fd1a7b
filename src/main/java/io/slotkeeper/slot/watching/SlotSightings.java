package io.slotkeeper.slot.watching;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.stream.Collectors;

import io.slotkeeper.config.SlotPolicyProperties;
import io.slotkeeper.fleet.Target;
import io.slotkeeper.slot.reading.ReplicationSlot;
import io.slotkeeper.slot.reading.SlotSighting;

/**
 * The configured slots of every target as its polls last saw them, and those its primary does not have: missing,
 * with what was last seen of them (on which server, at which confirmed position).
 */
public final class SlotSightings {

	private final Map<String, Map<String, SlotSighting>> seen = new ConcurrentHashMap<>();

	private final Map<String, List<Missing>> missing = new ConcurrentHashMap<>();

	void update(Target target, List<ReplicationSlot> slots, Instant at) {
		Map<String, SlotSighting> targetSeen = this.seen.computeIfAbsent(target.name(), (name) -> new ConcurrentHashMap<>());
		Set<String> present = slots.stream().map(ReplicationSlot::slotName).collect(Collectors.toSet());
		List<Missing> absent = new ArrayList<>();
		slots.stream()
			.filter((slot) -> target.policy(slot.slotName()).isPresent())
			.forEach((slot) -> targetSeen.put(slot.slotName(), SlotSighting.of(slot, target.primary().identity(), at)));
		for (SlotPolicyProperties policy : target.policies()) {
			if (!present.contains(policy.name())) {
				absent.add(new Missing(policy, targetSeen.get(policy.name())));
			}
		}
		this.missing.put(target.name(), List.copyOf(absent));
	}

	/**
	 * Forgets a target that left the fleet.
	 * @param target the target's name
	 */
	void forget(String target) {
		this.seen.remove(target);
		this.missing.remove(target);
	}

	/**
	 * The configured slots a target's primary did not have at its last good poll.
	 * @param target the target's name
	 * @return the missing slots, in configuration order
	 */
	public List<Missing> missing(String target) {
		return this.missing.getOrDefault(target, List.of());
	}

	/**
	 * A configured slot the primary does not have.
	 * @param policy its policy
	 * @param lastSeen what was last seen of it, {@code null} when never since start
	 */
	public record Missing(SlotPolicyProperties policy, SlotSighting lastSeen) {

		/**
		 * The slot's name.
		 * @return the name
		 */
		public String name() {
			return this.policy.name();
		}

	}

}
