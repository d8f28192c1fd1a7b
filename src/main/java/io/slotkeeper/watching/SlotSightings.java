package io.slotkeeper.watching;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.stream.Collectors;

import io.slotkeeper.config.SlotPolicyProperties;
import io.slotkeeper.fleet.Target;
import io.slotkeeper.replication.ReplicationSlot;
import io.slotkeeper.replication.SlotSighting;

/**
 * The configured slots of every target as its polls last saw them, and those its primary
 * does not have: missing, with what was last seen of them (on which server, at which
 * confirmed position); and the slots another manages ({@code managed-by}) that were seen
 * lost or missing and then usable again: made anew by their manager.
 */
public final class SlotSightings {

	private final Map<String, Map<String, SlotSighting>> seen = new ConcurrentHashMap<>();

	private final Map<String, List<Missing>> missing = new ConcurrentHashMap<>();

	// Per target, the slots another manages that were last seen lost (their sighting
	// then) or missing (their last).
	private final Map<String, Map<String, SlotSighting>> gone = new ConcurrentHashMap<>();

	private final Map<String, List<MadeAnew>> madeAnew = new ConcurrentHashMap<>();

	void update(Target target, List<ReplicationSlot> slots, Instant at) {
		Map<String, SlotSighting> targetSeen = this.seen.computeIfAbsent(target.name(),
				(name) -> new ConcurrentHashMap<>());
		Set<String> present = slots.stream().map(ReplicationSlot::slotName).collect(Collectors.toSet());
		List<Missing> absent = new ArrayList<>();
		watchManagedElsewhere(target, slots, present, targetSeen, at);
		slots.stream()
			.filter((slot) -> target.slots().policy(slot.slotName()).isPresent())
			.forEach((slot) -> targetSeen.put(slot.slotName(), SlotSighting.of(slot, target.primary().identity(), at)));
		for (SlotPolicyProperties policy : target.slots().policies()) {
			if (!present.contains(policy.name())) {
				absent.add(new Missing(policy, targetSeen.get(policy.name())));
			}
		}
		this.missing.put(target.name(), List.copyOf(absent));
	}

	// A slot is made anew when it was seen lost, or seen and then missing, and is now
	// there and usable.
	private void watchManagedElsewhere(Target target, List<ReplicationSlot> slots, Set<String> present,
			Map<String, SlotSighting> targetSeen, Instant at) {
		Map<String, SlotSighting> targetGone = this.gone.computeIfAbsent(target.name(),
				(name) -> new ConcurrentHashMap<>());
		for (ReplicationSlot slot : slots) {
			Optional<SlotPolicyProperties> policy = target.slots()
				.policy(slot.slotName())
				.filter((candidate) -> !candidate.managedBySlotKeeper());
			if (policy.isEmpty()) {
				continue;
			}
			if (slot.invalidated()) {
				// A lost slot keeps the position it was lost at: where the gap starts.
				targetGone.putIfAbsent(slot.slotName(), SlotSighting.of(slot, target.primary().identity(), at));
			}
			else {
				SlotSighting lastSeen = targetGone.remove(slot.slotName());
				if (lastSeen != null) {
					this.madeAnew.computeIfAbsent(target.name(), (name) -> new CopyOnWriteArrayList<>())
						.add(new MadeAnew(policy.get(), lastSeen, slot));
				}
			}
		}
		for (SlotPolicyProperties policy : target.slots().policies()) {
			SlotSighting before = targetSeen.get(policy.name());
			if (!policy.managedBySlotKeeper() && !present.contains(policy.name()) && before != null) {
				targetGone.putIfAbsent(policy.name(), before);
			}
		}
	}

	/**
	 * Takes the slots of a target that their manager made anew since the last call.
	 * @param target the target's name
	 * @return those slots, in the order they were seen
	 */
	public List<MadeAnew> takeMadeAnew(String target) {
		List<MadeAnew> taken = this.madeAnew.remove(target);
		return (taken != null) ? List.copyOf(taken) : List.of();
	}

	/**
	 * Keeps a slot made anew for the next call of {@link #takeMadeAnew(String)}, after a
	 * handover that failed.
	 * @param target the target's name
	 * @param made the slot
	 */
	public void again(String target, MadeAnew made) {
		this.madeAnew.computeIfAbsent(target, (name) -> new CopyOnWriteArrayList<>()).add(made);
	}

	/**
	 * Forgets a target that left the fleet.
	 * @param target the target's name
	 */
	void forget(String target) {
		this.seen.remove(target);
		this.missing.remove(target);
		this.gone.remove(target);
		this.madeAnew.remove(target);
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
	 * A slot another manages ({@code managed-by}) that it made anew after it was lost or
	 * missing.
	 *
	 * @param policy its policy
	 * @param lastSeen what was last seen of it: lost, at the position it was lost at; or
	 * before it went missing
	 * @param now the slot as it is now
	 */
	public record MadeAnew(SlotPolicyProperties policy, SlotSighting lastSeen, ReplicationSlot now) {
	}

	/**
	 * A configured slot the primary does not have.
	 *
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
