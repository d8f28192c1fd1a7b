package io.slotkeeper.settings;

import java.time.Duration;
import java.time.Instant;
import java.util.List;

/**
 * A raise of a server's {@code max_slot_wal_keep_size} that slot-keeper made and that
 * stands, as the owner of the server's lead target last saw it at a poll: what the
 * {@code slots} health, the gauges and the page say of it. A raise that no consumer needs
 * any longer (every slot it was made for, and every {@code on-outage} slot of the server,
 * is read again, lost or gone) should be put back within a few polls; one that stands
 * unneeded for longer than {@link #OVERDUE} is a put-back that is stuck, and the limit
 * that keeps the disk from filling is not in force.
 *
 * @param fromMegabytes the value it goes back to
 * @param toMegabytes the value slot-keeper set
 * @param slots the slots it was made for
 * @param raisedAt when it was made, as recorded
 * @param unneededSince since when no consumer needs it, {@code null} while one does
 * @param waitingFor what the put-back waits for, {@code null} when nothing is known to
 * hold it
 */
public record RaisedLimit(long fromMegabytes, long toMegabytes, List<String> slots, Instant raisedAt,
		Instant unneededSince, String waitingFor) {

	/**
	 * How long a raise may stand unneeded before it is a stuck put-back: long enough for
	 * an ordinary put-back, which waits for a consumer that catches up and for its slot's
	 * position to move at the server's next running-transactions record (every 15 s).
	 */
	public static final Duration OVERDUE = Duration.ofMinutes(5);

	/**
	 * How long the raise has stood.
	 * @param now the time now
	 * @return whole seconds, never negative
	 */
	public long ageSeconds(Instant now) {
		return Math.max(0, Duration.between(this.raisedAt, now).toSeconds());
	}

	/**
	 * How long the raise has stood with no consumer needing it.
	 * @param now the time now
	 * @return whole seconds, 0 while a consumer needs it
	 */
	public long unneededSeconds(Instant now) {
		return (this.unneededSince != null) ? Math.max(0, Duration.between(this.unneededSince, now).toSeconds()) : 0;
	}

	/**
	 * Whether the raise has stood unneeded for longer than {@link #OVERDUE}.
	 * @param now the time now
	 * @return whether the put-back is overdue
	 */
	public boolean overdue(Instant now) {
		return this.unneededSince != null && Duration.between(this.unneededSince, now).compareTo(OVERDUE) > 0;
	}

	/**
	 * What the raise's standing unneeded means, for the health and the settings audit.
	 * @param now the time now
	 * @return the words, empty while a consumer needs the raise
	 */
	public String unneededNote(Instant now) {
		if (this.unneededSince == null) {
			return "";
		}
		return "no consumer has needed it for " + unneededSeconds(now) + " s and it is not put back yet"
				+ ((this.waitingFor != null) ? ": the put-back waits until " + this.waitingFor : "")
				+ (overdue(now) ? "; past " + OVERDUE.toMinutes() + " minutes the put-back is stuck (see 'A WAL-limit"
						+ " raise that nobody needs' in the operating docs)" : "");
	}

}
