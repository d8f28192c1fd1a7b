package io.slotkeeper.outage;

import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Set;
import java.util.stream.Stream;

import io.slotkeeper.replication.ReplicationSlot;
import io.slotkeeper.settings.RaisedLimit;
import io.slotkeeper.settings.SettingFinding;

/**
 * A raise of a server's {@code max_slot_wal_keep_size} in force, as recorded in the
 * database of the target it was made through ({@link KeepSizeRecords}), so that a
 * restarted or new owner finds it and puts it back.
 *
 * @param server the server's key ({@link KeepSizeServer#keyOf})
 * @param fromMegabytes the value before the first raise
 * @param restore the statement that puts it back: {@code RESET} where the value came from
 * {@code postgresql.conf} or was the default, {@code SET} the value itself where
 * {@code postgresql.auto.conf} held it or the role may not see which
 * @param toMegabytes the value slot-keeper set
 * @param slots the slots it was raised for
 * @param at when it was raised first
 * @param serverAt the server's clock when it was last raised, to tell readings from
 * before it
 * @param yieldedTo the value an operator set while the raise stood, {@code null} while
 * none did: slot-keeper then leaves the setting alone (no raise again, no put-back) until
 * the outage is over
 */
record KeepSizeRaise(String server, long fromMegabytes, String restore, long toMegabytes, List<String> slots,
		Instant at, Instant serverAt, Long yieldedTo) {

	// The statement is run as it was recorded: only the two forms slot-keeper writes,
	// whatever a row says.
	private static final java.util.regex.Pattern RESTORES = java.util.regex.Pattern.compile(
			"ALTER SYSTEM (SET " + KeepSizeGuard.SETTING + " = '[0-9]{1,9}MB'|RESET " + KeepSizeGuard.SETTING + ")");

	KeepSizeRaise {
		if (!RESTORES.matcher(restore).matches()) {
			throw new IllegalArgumentException(
					"the recorded put-back of " + KeepSizeGuard.SETTING + " is not a statement slot-keeper writes");
		}
	}

	KeepSizeRaise to(OutageNeed need, Instant raisedAt) {
		List<String> all = new ArrayList<>(this.slots);
		need.slots().stream().filter((slot) -> !all.contains(slot)).forEach(all::add);
		return new KeepSizeRaise(this.server, this.fromMegabytes, this.restore, need.capMegabytes(), List.copyOf(all),
				this.at, raisedAt, null);
	}

	KeepSizeRaise yielded(long operatorsMegabytes) {
		return new KeepSizeRaise(this.server, this.fromMegabytes, this.restore, this.toMegabytes, this.slots, this.at,
				this.serverAt, operatorsMegabytes);
	}

	/**
	 * The value slot-keeper expects to read: its own, or the operator's it yielded to.
	 * @return megabytes
	 */
	long expectedMegabytes() {
		return (this.yieldedTo != null) ? this.yieldedTo : this.toMegabytes;
	}

	// A slot still needs the room while it exists, is not lost and no consumer reads it.
	boolean stillNeeded(List<ReplicationSlot> read) {
		return read.stream()
			.anyMatch((slot) -> this.slots.contains(slot.slotName()) && !Boolean.TRUE.equals(slot.active())
					&& !slot.invalidated());
	}

	/**
	 * The slot that retains the most WAL of those the old value could lose and the
	 * put-back must spare, {@code null} when each of them retains less than
	 * {@link #PUT_BACK_SHARE} of the value the setting goes back to. Spared are a slot a
	 * consumer reads (it may be catching up on what the raise kept) and one whose policy
	 * asked for room while its consumer is gone ({@code on-outage}). A slot that nobody
	 * reads and nobody asked room for is the limit's to decide, as it was before the
	 * raise: waiting for it would keep the raise until that slot alone retained the
	 * raised value, hours at a quiet server's WAL rate.
	 * @param read every slot of the server
	 * @param optedIn the names of the server's slots whose policy has {@code on-outage}
	 * @return the slot in the way
	 */
	ReplicationSlot inTheWay(List<ReplicationSlot> read, Set<String> optedIn) {
		return beyondRoom(read)
			.filter((slot) -> Boolean.TRUE.equals(slot.active()) || optedIn.contains(slot.slotName()))
			.max(Comparator.comparing(ReplicationSlot::retainedWalBytes))
			.orElse(null);
	}

	/**
	 * The slots that retain at least {@link #PUT_BACK_SHARE} of the value put back and
	 * that the put-back does not wait for ({@link #inTheWay}): the value put back may
	 * invalidate them, as it would have without the raise.
	 * @param read every slot of the server
	 * @param optedIn the names of the server's slots whose policy has {@code on-outage}
	 * @return their names
	 */
	List<String> leftToTheLimit(List<ReplicationSlot> read, Set<String> optedIn) {
		return beyondRoom(read)
			.filter((slot) -> !Boolean.TRUE.equals(slot.active()) && !optedIn.contains(slot.slotName()))
			.map(ReplicationSlot::slotName)
			.toList();
	}

	private Stream<ReplicationSlot> beyondRoom(List<ReplicationSlot> read) {
		long room = (long) (this.fromMegabytes * 1024L * 1024L * PUT_BACK_SHARE);
		return read.stream()
			.filter((slot) -> !slot.invalidated() && slot.retainedWalBytes() != null
					&& slot.retainedWalBytes() >= room);
	}

	/**
	 * The raise as the settings audit shows it: a warning while a consumer needs it or a
	 * put-back may still come, and critical once it has stood unneeded for longer than
	 * {@link RaisedLimit#OVERDUE}.
	 * @param currentMegabytes the value read now
	 * @param shown the raise as the polls see it
	 * @param memoryOnly why the raise is kept only in this instance's memory,
	 * {@code null} when it is recorded
	 * @param now the time now
	 * @return the finding on {@code max_slot_wal_keep_size}
	 */
	SettingFinding finding(long currentMegabytes, RaisedLimit shown, String memoryOnly, Instant now) {
		if (this.yieldedTo != null) {
			return new SettingFinding(KeepSizeGuard.SETTING, currentMegabytes + "MB", SettingFinding.WARNING,
					"set by" + " an operator while slot-keeper's raise for " + String.join(", ", this.slots)
							+ " stood; left as" + " it is until their consumers read again");
		}
		String raised = "raised by slot-keeper from " + this.fromMegabytes + "MB at " + this.at + " for "
				+ String.join(", ", this.slots);
		String state = (shown.unneededSince() == null)
				? ", whose consumer is gone (on-outage); put back when it reads" + " again"
						+ ((shown.waitingFor() != null) ? " and " + shown.waitingFor() : "")
				: "; " + shown.unneededNote(now);
		return new SettingFinding(KeepSizeGuard.SETTING, this.toMegabytes + "MB",
				shown.overdue(now) ? SettingFinding.CRITICAL : SettingFinding.WARNING,
				raised + state + ((memoryOnly != null) ? "; kept in this instance's memory only: " + memoryOnly : ""));
	}

	/**
	 * The raise as the polls show it.
	 * @param unneededSince since when no consumer needs it, {@code null} while one does
	 * @param waitingFor what the put-back waits for, {@code null} for nothing known
	 * @return the raise shown
	 */
	RaisedLimit shown(Instant unneededSince, String waitingFor) {
		return new RaisedLimit(this.fromMegabytes, expectedMegabytes(), this.slots, this.at, unneededSince, waitingFor);
	}

	/**
	 * The share of the value put back that every slot must retain less than before it is
	 * put back: a checkpoint right after would otherwise lose the slot the raise
	 * protected, while its consumer catches up.
	 */
	static final double PUT_BACK_SHARE = 0.8;

}
