package io.slotkeeper.outage;

import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.function.BiFunction;
import java.util.function.Function;
import java.util.stream.Collectors;

import io.slotkeeper.config.SlotPolicyProperties;
import io.slotkeeper.fleet.Target;
import io.slotkeeper.replication.ReplicationSlot;
import io.slotkeeper.replication.SlotInsight;
import io.slotkeeper.sessions.ServerIdentity;

/**
 * One server as the WAL-limit guard sees it: its key, the fleet's targets on it, and its
 * lead target, the first by name of those with an {@code on-outage} slot, whose owner
 * acts for the server and in whose database the raise is recorded.
 *
 * @param key the server's key ({@link #keyOf})
 * @param targets the fleet's targets on the server
 * @param lead the lead target, {@code null} when none of them opted in
 */
record KeepSizeServer(String key, List<Target> targets, Target lead) {

	/**
	 * The server of a target.
	 * @param target the target polled
	 * @param fleet every target of the fleet
	 * @return the server, empty before a session of the target answered
	 */
	static Optional<KeepSizeServer> of(Target target, List<Target> fleet) {
		String key = keyOf(target);
		if (key == null) {
			return Optional.empty();
		}
		List<Target> targets = fleet.stream().filter((other) -> key.equals(keyOf(other))).toList();
		Target lead = targets.stream()
			.filter(KeepSizeServer::optedIn)
			.min(Comparator.comparing(Target::name))
			.orElse(null);
		return Optional.of(new KeepSizeServer(key, targets.isEmpty() ? List.of(target) : targets, lead));
	}

	/**
	 * The key of a target's server: its primary's address, port and system identifier, as
	 * its sessions saw them.
	 * @param target the target
	 * @return the key, {@code null} before a session answered
	 */
	static String keyOf(Target target) {
		ServerIdentity identity = target.primary().identity();
		return (identity == null) ? null
				: identity.address() + ":" + identity.port() + "/" + identity.systemIdentifier();
	}

	static boolean optedIn(Target target) {
		return target.slots().policies().stream().anyMatch((policy) -> policy.onOutage() != null);
	}

	/**
	 * Whether this instance acts for the server: it owns the lead target.
	 * @return whether it does
	 */
	boolean actsHere() {
		return this.lead != null && this.lead.ownership().owned();
	}

	/**
	 * The names of the server's slots whose policy asked for room while their consumer is
	 * gone.
	 * @return the names
	 */
	Set<String> optedInSlots() {
		return policies().stream()
			.filter((policy) -> policy.onOutage() != null)
			.map(SlotPolicyProperties::name)
			.collect(Collectors.toUnmodifiableSet());
	}

	/**
	 * Whether a slot of the server whose policy asked for room has lost its consumer: it
	 * exists, is not lost, and no consumer reads it.
	 * @param slots every slot of the server
	 * @return whether one has
	 */
	boolean consumerGone(List<ReplicationSlot> slots) {
		Set<String> optedIn = optedInSlots();
		return slots.stream()
			.anyMatch((slot) -> optedIn.contains(slot.slotName()) && !Boolean.TRUE.equals(slot.active())
					&& !slot.invalidated());
	}

	List<SlotPolicyProperties> policies() {
		return this.targets.stream().flatMap((target) -> target.slots().policies().stream()).toList();
	}

	// A slot's insight is kept by the target whose policy names it (slot names are the
	// server's, unique on it).
	Function<String, SlotInsight> insights(BiFunction<String, String, SlotInsight> byTarget) {
		return (slot) -> this.targets.stream()
			.filter((target) -> target.slots().policy(slot).isPresent())
			.findFirst()
			.map((target) -> byTarget.apply(target.name(), slot))
			.orElseGet(() -> byTarget.apply(this.targets.get(0).name(), slot));
	}

}
