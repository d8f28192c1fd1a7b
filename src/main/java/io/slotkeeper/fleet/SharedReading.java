package io.slotkeeper.fleet;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import io.slotkeeper.sessions.Node;
import io.slotkeeper.sessions.SqlWork;

/**
 * A reading of one server that the callers reading the same server share while it is
 * younger than most of their poll interval: {@code pg_replication_slots} is one view for
 * the whole server, so however many of its databases poll, it is read about once per
 * interval, through one session instead of one per database.
 */
final class SharedReading {

	private final Clock clock;

	// A configured server shares its failures too: one that does not answer costs one
	// timeout per interval, not one
	// per database waiting here. Targets configured one by one read through their own
	// nodes, so each keeps its own.
	private final boolean failuresShared;

	private Object lastRead;

	private RuntimeException lastFailure;

	private Instant lastReadAt;

	private boolean inFlight;

	// The node the last reading came through: its pooled session is open, so the next
	// reading goes through it again
	// rather than through whichever caller comes first, which would open a session in
	// another database each time.
	private volatile Node reader;

	SharedReading(Clock clock, boolean failuresShared) {
		this.clock = clock;
		this.failuresShared = failuresShared;
	}

	/**
	 * What a read returns, read again only when asked to read now or when the last
	 * reading is older than nine tenths of the caller's poll interval (so that the polls
	 * of one server's databases, spread over the interval, share one): through the node
	 * the last reading came through, else through the caller's.
	 * @param <T> what the read returns; every caller must pass the same work
	 * @param through the caller's node
	 * @param work the read
	 * @param pollInterval the caller's poll interval
	 * @param now whether the reading must be made now (after a change, or for a caller
	 * who waits for it); the others then share it
	 * @return the reading
	 * @throws io.slotkeeper.problem.ProblemException when the node cannot be reached or
	 * refuses
	 */
	<T> T read(Node through, SqlWork<T> work, Duration pollInterval, boolean now) {
		Duration maxAge = now ? Duration.ZERO : pollInterval.multipliedBy(9).dividedBy(10);
		return this.failuresShared ? readTogether(through, work, maxAge) : readAlongside(through, work, maxAge);
	}

	// Callers wait for the reading in flight and share what it came to, failure included.
	private synchronized <T> T readTogether(Node through, SqlWork<T> work, Duration maxAge) {
		if (!young(maxAge)) {
			this.lastReadAt = this.clock.instant();
			try {
				this.lastRead = readThrough(through, work);
				this.lastFailure = null;
			}
			catch (RuntimeException ex) {
				this.lastFailure = ex;
			}
		}
		return last();
	}

	// A caller never waits for another's read: on a server that hangs, every poll worker
	// of its targets would wait
	// here in turn. While a read is in flight a caller reads through its own node, and
	// keeps what it read to itself.
	private <T> T readAlongside(Node through, SqlWork<T> work, Duration maxAge) {
		Instant started;
		synchronized (this) {
			if (young(maxAge)) {
				return last();
			}
			if (this.inFlight) {
				started = null;
			}
			else {
				this.inFlight = true;
				started = this.clock.instant();
			}
		}
		if (started == null) {
			return through.withConnection(work);
		}
		try {
			T read = readThrough(through, work);
			synchronized (this) {
				this.lastRead = read;
				this.lastReadAt = started;
			}
			return read;
		}
		finally {
			synchronized (this) {
				this.inFlight = false;
			}
		}
	}

	private boolean young(Duration maxAge) {
		return this.lastReadAt != null && this.clock.instant().isBefore(this.lastReadAt.plus(maxAge));
	}

	@SuppressWarnings("unchecked")
	private <T> T last() {
		if (this.lastFailure != null) {
			throw this.lastFailure;
		}
		return (T) this.lastRead;
	}

	// The caller's own node when the last reader fails, so that a caller sees its own
	// failure; the last reader is then
	// forgotten, so a server that is down costs one extra attempt, not one per reading.
	private <T> T readThrough(Node through, SqlWork<T> work) {
		Node last = this.reader;
		if (last != null && last != through) {
			try {
				return last.withConnection(work);
			}
			catch (RuntimeException ex) {
				this.reader = null;
			}
		}
		T read = through.withConnection(work);
		this.reader = through;
		return read;
	}

}
