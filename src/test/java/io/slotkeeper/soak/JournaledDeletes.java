package io.slotkeeper.soak;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import io.slotkeeper.sessions.Lsn;

/**
 * One exact gap's deletes of {@code public.orders} as its journal counted them, against
 * the harness's own count: the deletes whose commit the writers placed between the gap's
 * start and end. A delete's commit is known to lie after its own record and before the
 * position the writers read after the commit, so it is certainly in the gap when that
 * whole range is, and at its edge when the range crosses the gap's start or end (a fault
 * that fell within the few microseconds of one delete's commit).
 *
 * @param target the target
 * @param from where the gap began
 * @param to where it ended
 * @param journaled the deletes the journal counted
 * @param certain the deletes certainly committed in the gap
 * @param edges the deletes whose commit may be on either side of its start or end
 */
record JournaledDeletes(String target, String from, String to, long journaled, long certain, long edges) {

	/**
	 * Every exact gap of the run, checked against the harness's deletes of its target.
	 * @param losses the heals' gaps as the instances said them
	 * @param truths per target, the database at the end
	 * @return one check per gap that was exact
	 */
	static List<JournaledDeletes> of(List<InstanceLogs.Loss> losses, Map<String, SoakVerdict.Truth> truths) {
		List<JournaledDeletes> checks = new ArrayList<>();
		for (InstanceLogs.Loss loss : losses) {
			SoakVerdict.Truth truth = truths.get(loss.target());
			if (truth == null || !"exact".equals(loss.journaled()) || "null".equals(loss.to())) {
				continue;
			}
			long from = Lsn.parse(loss.from());
			long to = Lsn.parse(loss.to());
			long certain = 0;
			long edges = 0;
			for (long[] deleted : truth.deleted().values()) {
				long after = deleted[2];
				long before = deleted[3];
				if (after >= from && before <= to) {
					certain++;
				}
				else if (before > from && after < to) {
					edges++;
				}
			}
			checks.add(new JournaledDeletes(loss.target(), loss.from(), loss.to(), loss.changed()[2], certain, edges));
		}
		return checks;
	}

	/**
	 * Whether the journal counted every delete certainly in the gap and none outside it.
	 * @return whether the counts agree
	 */
	boolean agree() {
		return this.journaled >= this.certain && this.journaled <= this.certain + this.edges;
	}

	String describe() {
		return String.format("%s %s to %s: journal %d deleted, harness %d%s", this.target, this.from, this.to,
				this.journaled, this.certain, (this.edges > 0) ? " (+" + this.edges + " at its edges)" : "");
	}

}
