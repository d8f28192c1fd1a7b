package io.slotkeeper.config;

import java.util.ArrayList;
import java.util.List;

import jakarta.validation.Valid;
import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.NotBlank;
import jakarta.validation.constraints.NotNull;
import jakarta.validation.constraints.Pattern;

import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * What slot-keeper knows about one slot of a target beyond what the server says.
 *
 * @param name the slot's name
 * @param connector the Kafka Connect connector consuming it, restarted after a recreate;
 * none when absent
 * @param onLost what to do when the slot is found lost: {@code alert} (report only) or
 * {@code recreate} (heal it, on the instance that owns the target)
 * @param onMissing what to do when the primary does not have the slot (after a failover,
 * say): {@code alert} (report only) or {@code recreate} (create it again as last seen, on
 * the instance that owns the target)
 * @param onOrphan what to do when a replica holds a slot of this name that is not
 * synchronized from the primary's failover slot and so blocks its synchronization:
 * {@code alert} (report only) or {@code drop} (drop it on the replica, on the instance
 * that owns the target, unless a session holds it)
 * @param resnapshot how the consumer reads again what a recreate skipped: by default
 * nothing is sent
 * @param maxRecreationsPerHour how many times in an hour healing may recreate the slot;
 * past that it stops, keeps the slots health DOWN and says why
 * @param onOutage what may be done while the slot's consumer is gone: by default nothing
 * (opt-in: raise the server's {@code max_slot_wal_keep_size} up to a cap while the slot's
 * outage budget is low)
 * @param onFailed what to do when the slot's connector or one of its tasks is FAILED
 * while the slot is healthy: {@code alert} (report only, the default) or {@code restart}
 * (restart its failed tasks once they stayed FAILED 5 s, on the instance that owns the
 * target, unless its user stopped or paused it); a task failed on an offset older than
 * the slot, or while the slot is lost or missing, is left to healing
 * @param maxRestartsPerHour how many times in an hour {@code on-failed: restart} may
 * restart the connector; past that it is left FAILED and the refusal audited
 * @param managedBy who drops and creates the slot: {@code slot-keeper} (the default), or
 * {@code patroni}, {@code cloudnative-pg}, {@code slot-sync}, {@code other}; then
 * slot-keeper refuses to drop, create or recreate it (409
 * {@code slot-managed-elsewhere}), alerts when it is lost and hands its connector over to
 * the slot its manager makes anew; {@code on-lost}, {@code on-missing} must be
 * {@code alert} and {@code on-orphan} {@code alert}
 */
@Consistent
public record SlotPolicyProperties(
		@NotBlank @Pattern(regexp = SlotPolicyProperties.NAME_PATTERN,
				message = "must be 1 to 63 lower-case letters, digits and underscores") String name,
		@Valid ConnectorProperties connector, @NotNull @DefaultValue("alert") OnLost onLost,
		@NotNull @DefaultValue("alert") OnMissing onMissing, @NotNull @DefaultValue("alert") OnOrphan onOrphan,
		@Valid @NotNull @DefaultValue ResnapshotProperties resnapshot,
		@Min(1) @DefaultValue("2") int maxRecreationsPerHour, @Valid OnOutageProperties onOutage,
		@NotNull @DefaultValue("alert") OnFailed onFailed, @Min(1) @DefaultValue("6") int maxRestartsPerHour,
		@NotNull @DefaultValue("slot-keeper") ManagedBy managedBy) implements CrossFieldChecked {

	/**
	 * What a slot's name may be, everywhere slot-keeper takes one: 1 to 63 lower-case
	 * letters, digits and underscores.
	 */
	public static final String NAME_PATTERN = "^[a-z0-9_]{1,63}$";

	/**
	 * This policy with what a discovered connector brings where it says nothing: the
	 * connector, when it names none, and the discovered policy's re-snapshot, when its
	 * own is the default {@code none}. A connector named here wins.
	 * @param found the policy made for a discovered connector of the same slot
	 * @return the policy to follow
	 */
	public SlotPolicyProperties over(SlotPolicyProperties found) {
		if (this.connector != null) {
			return this;
		}
		boolean defaultResnapshot = this.resnapshot.mode() == ResnapshotProperties.Mode.NONE
				&& this.resnapshot.signalTable() == null && this.resnapshot.collections() == null;
		return new SlotPolicyProperties(this.name, found.connector(), this.onLost, this.onMissing, this.onOrphan,
				defaultResnapshot ? found.resnapshot() : this.resnapshot, this.maxRecreationsPerHour, this.onOutage,
				this.onFailed, this.maxRestartsPerHour, this.managedBy);
	}

	/**
	 * Whether slot-keeper drops and creates the slot.
	 * @return {@code false} when another manages it
	 */
	public boolean managedBySlotKeeper() {
		return this.managedBy == ManagedBy.SLOT_KEEPER;
	}

	/**
	 * Whether slot-keeper acts when the slot is lost or missing: it heals the slot, or
	 * hands its connector over to the slot its manager makes anew.
	 * @return whether it acts
	 */
	public boolean actsOnLoss() {
		return this.onLost == OnLost.RECREATE || this.onMissing == OnMissing.RECREATE || !managedBySlotKeeper();
	}

	@Override
	public List<Violation> violations() {
		List<Violation> violations = new ArrayList<>();
		if (this.managedBy == null || managedBySlotKeeper()) {
			return violations;
		}
		String why = " when managed-by is " + this.managedBy.configName() + ": slot-keeper never drops or creates a"
				+ " slot another manages (it hands the connector over to the slot its manager makes anew)";
		if (this.onLost == OnLost.RECREATE) {
			violations.add(new Violation("onLost", "must be alert" + why));
		}
		if (this.onMissing == OnMissing.RECREATE) {
			violations.add(new Violation("onMissing", "must be alert" + why));
		}
		if (this.onOrphan == OnOrphan.DROP) {
			violations.add(new Violation("onOrphan", "must be alert" + why));
		}
		return violations;
	}

}
