package io.slotkeeper.config;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

import jakarta.validation.Valid;
import jakarta.validation.constraints.NotBlank;
import jakarta.validation.constraints.NotNull;
import jakarta.validation.constraints.Pattern;
import org.hibernate.validator.constraints.time.DurationMax;
import org.hibernate.validator.constraints.time.DurationMin;

import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * One PostgreSQL primary that slot-keeper keeps: where it is, how to log in, its
 * heartbeat, slot policies and replicas.
 *
 * @param name short name of the target, used in the API, metrics and logs: lower-case
 * letters, digits and dashes, at most 63 characters, starting and ending with a letter or
 * digit
 * @param url PgJDBC URL of the target database, for example
 * {@code jdbc:postgresql://db:5432/orders?sslmode=verify-full&sslrootcert=/etc/pg/ca.crt};
 * it must not carry a password, use {@code password}
 * @param username role slot-keeper logs in as
 * @param password password of that role, usually from an environment variable or a
 * mounted secret; never logged or shown
 * @param connection timeouts of every session slot-keeper opens to the target's nodes
 * @param heartbeat heartbeat settings for this target
 * @param slotsPollInterval how often the target's slots are read for metrics and health
 * @param slots slots with a policy of their own, such as the connector to restart after a
 * recreate
 * @param lossWarning the slots health warns when a slot is estimated to be lost sooner
 * than this (at most 365 days)
 * @param replicas read replicas (streaming standbys) whose slots the API manages with
 * {@code ?node=<name>}
 */
@Consistent
public record TargetProperties(
		@NotBlank @Pattern(regexp = NAME_PATTERN,
				message = "must be lower-case letters, digits and dashes, 1 to 63"
						+ " characters, starting and ending with a letter or digit") String name,
		@NotBlank @Pattern(regexp = "^jdbc:postgresql:.+",
				message = "must be a PgJDBC URL starting with jdbc:postgresql:") String url,
		String username, Secret password, @NotNull @Valid @DefaultValue ConnectionProperties connection,
		@NotNull @Valid @DefaultValue HeartbeatProperties heartbeat,
		@NotNull @DurationMin(millis = 1) @DurationMax(hours = 1) @DefaultValue("30s") Duration slotsPollInterval,
		@NotNull @DefaultValue List<@Valid SlotPolicyProperties> slots,
		@NotNull @DurationMin(millis = 1) @DurationMax(days = 365) @DefaultValue("1h") Duration lossWarning,
		@NotNull @DefaultValue List<@Valid ReplicaProperties> replicas) implements CrossFieldChecked {

	/**
	 * The node the API calls {@code primary}.
	 */
	public static final String PRIMARY = "primary";

	/**
	 * The pattern of target names.
	 */
	public static final String NAME_PATTERN = "^[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?$";

	/**
	 * The policy of a slot, if it has one.
	 * @param slot the slot's name
	 * @return the policy
	 */
	public Optional<SlotPolicyProperties> slotPolicy(String slot) {
		return this.slots.stream().filter((policy) -> policy.name().equals(slot)).findFirst();
	}

	private static Violation healingNeedsHeartbeat(String property) {
		return new Violation(property, "recreate needs heartbeat.enabled=true: only the instance that owns the target"
				+ " heals it, and the heartbeat is what takes ownership");
	}

	@Override
	public List<Violation> violations() {
		List<Violation> violations = new ArrayList<>(
				CrossFieldChecked.duplicateNames("slots", this.slots, SlotPolicyProperties::name, "slot"));
		violations
			.addAll(CrossFieldChecked.duplicateNames("replicas", this.replicas, ReplicaProperties::name, "replica"));
		for (int i = 0; i < this.slots.size(); i++) {
			SlotPolicyProperties policy = this.slots.get(i);
			boolean heartbeatOff = this.heartbeat != null && !this.heartbeat.enabled();
			if (heartbeatOff && policy.onLost() == OnLost.RECREATE) {
				violations.add(healingNeedsHeartbeat("slots[" + i + "].onLost"));
			}
			if (heartbeatOff && policy.onMissing() == OnMissing.RECREATE) {
				violations.add(healingNeedsHeartbeat("slots[" + i + "].onMissing"));
			}
			ResnapshotProperties resnapshot = policy.resnapshot();
			if (resnapshot.mode() == ResnapshotProperties.Mode.DEBEZIUM_SIGNAL && policy.connector() == null
					&& (resnapshot.signalTable() == null || resnapshot.collections() == null)) {
				violations.add(new Violation("slots[" + i + "].resnapshot", "debezium-signal needs signal-table and"
						+ " collections, or a connector whose configuration names them"));
			}
		}
		this.replicas.stream()
			.filter((replica) -> PRIMARY.equals(replica.name()))
			.findFirst()
			.ifPresent((replica) -> violations.add(new Violation("replicas", "no replica may be named 'primary'")));
		return violations;
	}

}
