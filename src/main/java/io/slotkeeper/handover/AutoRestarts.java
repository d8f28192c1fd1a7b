package io.slotkeeper.handover;

/**
 * The Strimzi operator's own restarts ({@code spec.autoRestart}) during a handover. Its
 * count sets the backoff of its next restart and, with {@code maxRestarts}, when it gives
 * up: a handover that raised it left the operator slower to restart the next real
 * failure, so the handover says so, and why.
 */
final class AutoRestarts {

	private AutoRestarts() {
	}

	/**
	 * The handover, with a warning when the operator's count moved while it ran.
	 * @param done the handover
	 * @param before the count before slot-keeper changed anything, {@code null} when
	 * there is none
	 * @param after the count now, {@code null} when there is none
	 * @return the handover, its warning extended when the count rose
	 */
	static ConnectorHandover compared(ConnectorHandover done, Integer before, Integer after) {
		if (done.pending() || before == null || after == null || after <= before) {
			return done;
		}
		// A count that fell is the operator's reset after a stable spell: not a restart.
		String note = "the Strimzi operator restarted it on its own " + (after - before) + " time(s) during the"
				+ " handover (status.autoRestart.count " + before + " -> " + after + "): "
				+ (done.running() ? "a task was FAILED when the operator reconciled, before slot-keeper stopped it"
						: "a task FAILED again after the handover (its state above)")
				+ "; its next auto-restart waits longer";
		return new ConnectorHandover(done.connector(), done.method(), done.reason(), done.running(),
				done.offsetsBefore(), done.offsetsAfter(), done.state(),
				(done.warning() != null) ? done.warning() + "; " + note : note, done.leftAs(), done.completedFrom());
	}

}
