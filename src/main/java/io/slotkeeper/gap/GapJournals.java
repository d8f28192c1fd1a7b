package io.slotkeeper.gap;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;
import java.util.function.Predicate;

import io.micrometer.core.instrument.MeterRegistry;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.slotkeeper.config.GapJournalProperties;
import io.slotkeeper.config.SlotPolicyProperties;
import io.slotkeeper.fleet.Target;
import io.slotkeeper.replication.ReplicationSlot;
import io.slotkeeper.sessions.FailureDescription;
import io.slotkeeper.sessions.Lsn;

/**
 * The journals of the slots whose consumers are away, kept by the instance that owns
 * their target: one starts once a pgoutput slot whose loss slot-keeper heals or hands
 * over has been inactive for {@code after}, or once its estimated time to loss is under
 * {@code when-loss-within} (its consumer reading too slowly), is fed at every poll so
 * that its copy stays close to the server's head (and never becomes the next lost slot),
 * and ends when the consumer is back past it, or when the slot is made anew
 * ({@link #close}), which turns it into the {@link Gap}. Each page decoded is kept in the
 * server ({@link GapJournalStores}) before the copy is consumed past it, so that the
 * owner after a restart or a takeover adopts the journal and its copy and goes on where
 * it was; where it cannot be kept there, the journal lives in this instance's memory
 * only, and says so. A complete gap a recreate closed stays stored until its re-snapshot
 * is sent ({@link ClosedGaps}).
 */
public final class GapJournals implements ClosedGaps, AutoCloseable {

	private static final Logger logger = LoggerFactory.getLogger(GapJournals.class);

	// The server's answer when a slot does not exist.
	private static final String UNDEFINED_OBJECT = "42704";

	// SQLState classes of a failure a later try may not meet: the connection, the
	// operator's or the server's intervention (a statement cut short, a shutdown), its
	// resources, a transaction rolled back.
	private static final Set<String> TRANSIENT = Set.of("08", "57", "53", "40");

	// The copy in use by another session: the instance that owned the target before,
	// still reading it.
	private static final String OBJECT_IN_USE = "55006";

	private final GapJournalProperties settings;

	private final Clock clock;

	private final Map<String, Kept> kept = new ConcurrentHashMap<>();

	private final Map<String, Instant> awaySince = new ConcurrentHashMap<>();

	// The closed gaps this instance stored or read: the only ones it forgets, so that a
	// recreate with no journal costs no session on the store.
	private final Set<String> closedKept = ConcurrentHashMap.newKeySet();

	private final Map<String, String> notKept = new ConcurrentHashMap<>();

	private final Map<String, Closed> last = new ConcurrentHashMap<>();

	private final GapMeters meters;

	private final GapJournalStores stores;

	/**
	 * @param settings when journals start and how much they may hold
	 * @param registry where the gaps are counted
	 * @param clock how long consumers have been away
	 */
	public GapJournals(GapJournalProperties settings, MeterRegistry registry, Clock clock) {
		this.settings = settings;
		this.clock = clock;
		this.meters = new GapMeters(registry, this.kept::size);
		this.stores = new GapJournalStores(settings.database());
	}

	/**
	 * On the owner's poll of a target: starts, feeds and ends its slots' journals (a
	 * journal whose slot is gone, or no longer healed or handed over, ends with its
	 * copy), and drops the copies no journal of this instance reads.
	 * @param target the target
	 * @param slots its database's slots as the poll read them
	 * @param serverSlots every slot of its server, to count the copies there
	 * @param publications the publications a slot's consumer reads; empty when unknown
	 * (then every publication of the database)
	 * @param secondsToLoss a slot's estimated seconds until it is lost, {@code null} when
	 * not known
	 */
	public void follow(Target target, List<ReplicationSlot> slots, List<ReplicationSlot> serverSlots,
			Function<String, List<String>> publications, Function<String, Double> secondsToLoss) {
		if (!this.settings.enabled() || !target.ownership().owned()) {
			forget(target);
			return;
		}
		Set<String> followed = new HashSet<>();
		long copies = serverSlots.stream().filter((each) -> each.slotName().startsWith(SlotCopies.PREFIX)).count();
		Map<String, ReplicationSlot> byName = new HashMap<>();
		slots.forEach((each) -> byName.put(each.slotName(), each));
		for (SlotPolicyProperties policy : target.slots().policies()) {
			ReplicationSlot slot = byName.get(policy.name());
			if (policy.actsOnLoss() && slot != null && slot.logical() && "pgoutput".equals(slot.plugin())) {
				followed.add(key(target, slot.slotName()));
				ReplicationSlot copy = byName.get(SlotCopies.copyOf(policy.name()));
				copies += follow(target, slot, copy, copies, publications.apply(slot.slotName()),
						lossNear(secondsToLoss.apply(slot.slotName())));
			}
		}
		dropOrphans(target, slots);
		// A journal whose slot is gone, or no longer healed or handed over, ends: a copy
		// nobody feeds would keep WAL for good.
		this.kept.forEach((key, journal) -> {
			if (key.startsWith(target.name() + "/") && !followed.contains(key)) {
				end(target, journal, "its slot is gone, or slot-keeper no longer heals or hands it over");
			}
		});
		this.awaySince.keySet().removeIf((key) -> key.startsWith(target.name() + "/") && !followed.contains(key));
		this.notKept.keySet().removeIf((key) -> key.startsWith(target.name() + "/") && !followed.contains(key));
	}

	// How many copies it made: 1 when a journal started.
	private int follow(Target target, ReplicationSlot slot, ReplicationSlot copy, long copies,
			List<String> publications, boolean lossNear) {
		String key = key(target, slot.slotName());
		Kept journal = this.kept.get(key);
		if (journal == null && copy != null && !Boolean.TRUE.equals(copy.active())) {
			Kept adopted = adopt(target, slot.slotName(),
					(copy.confirmedFlushLsn() != null) ? Lsn.parse(copy.confirmedFlushLsn()) : null);
			if (adopted != null) {
				Kept raced = this.kept.putIfAbsent(key, adopted);
				journal = (raced != null) ? raced : adopted;
			}
		}
		// Its copy gone (left behind by a switchover) and the slot still whole: a new
		// copy of the slot, which has not moved, journals the whole gap again.
		if (journal != null && journal.copyGone && !slot.invalidated()) {
			this.kept.remove(key);
			logger.info("The gap journal of slot '{}' (target '{}') starts again from the slot: {}", slot.slotName(),
					target.name(), journal.incomplete);
			journal = null;
		}
		if (Boolean.TRUE.equals(slot.active()) && !lossNear) {
			this.awaySince.remove(key);
			this.notKept.remove(key);
			if (journal != null && slot.confirmedFlushLsn() != null
					&& Lsn.parse(slot.confirmedFlushLsn()) >= journal.journal.position()) {
				end(target, journal, "its consumer is back at " + slot.confirmedFlushLsn());
			}
			return 0;
		}
		// Lost and not yet made anew: the gap goes on until the new slot starts.
		if (slot.invalidated()) {
			if (journal != null) {
				feed(target, journal, null, this.settings.pagesPerPoll());
			}
			return 0;
		}
		// Its consumer still reading (slowly: the loss is near): what it has confirmed is
		// no longer the gap's.
		if (journal != null && Boolean.TRUE.equals(slot.active()) && slot.confirmedFlushLsn() != null) {
			rebase(journal, slot.confirmedFlushLsn());
		}
		Instant now = this.clock.instant();
		Instant since = Boolean.TRUE.equals(slot.active()) ? now : this.awaySince.computeIfAbsent(key, (away) -> now);
		if (journal == null) {
			if (!lossNear && now.isBefore(since.plus(this.settings.after()))) {
				return 0;
			}
			if (copies >= this.settings.maxCopiesPerServer()) {
				this.notKept.put(key, "the server already holds " + copies + " copies of slots"
						+ " (gap-journal.max-copies-per-server)");
				return 0;
			}
			journal = start(target, slot, publications);
			if (journal == null) {
				return 0;
			}
			feed(target, journal, null, this.settings.pagesPerPoll());
			return 1;
		}
		feed(target, journal, null, this.settings.pagesPerPoll());
		return 0;
	}

	// The gap starts where the consumer last confirmed, never before: a journal begun
	// earlier forgets what came before it.
	private static void rebase(Kept journal, String confirmed) {
		synchronized (journal) {
			long position = Lsn.parse(confirmed);
			if (journal.from == null || position > Lsn.parse(journal.from)) {
				journal.journal.since(position);
				journal.from = confirmed;
			}
		}
	}

	private boolean lossNear(Double secondsToLoss) {
		return secondsToLoss != null && !this.settings.whenLossWithin().isZero()
				&& secondsToLoss < this.settings.whenLossWithin().toSeconds();
	}

	private Kept start(Target target, ReplicationSlot slot, List<String> publications) {
		String key = key(target, slot.slotName());
		try {
			Kept journal = target.primary().withConnection((connection) -> {
				String encoding = SlotCopies.otherEncoding(connection);
				if (encoding != null) {
					throw new SQLException("the database's encoding is " + encoding + ", not UTF8");
				}
				String full = SlotCopies.noFreeSlot(connection);
				if (full != null) {
					throw new SQLException(full);
				}
				List<String> read = publications.isEmpty() ? allPublications(connection) : publications;
				if (read.isEmpty()) {
					throw new SQLException("the database has no publication to decode with");
				}
				PrimaryKeys keys = new PrimaryKeys();
				String copy = SlotCopies.copy(connection, slot.slotName());
				Kept started = new Kept(slot.slotName(), connection.getCatalog(), copy, slot.confirmedFlushLsn(), read,
						new GapJournal(this.settings.maxKeys(), keys, outbox(target, slot.slotName()),
								this.settings.maxEventBytes().toBytes()),
						keys, this.clock.instant());
				started.notStored = this.stores.notStoredBecause(started.database);
				return started;
			});
			this.kept.put(key, journal);
			this.notKept.remove(key);
			if (journal.notStored == null) {
				// What an earlier journal of the slot left is not this one's, nor what
				// journals whose copies are gone left.
				this.stores.delete(target, journal.slot);
				this.stores.sweep(target);
			}
			logger.info("Journaling what changes while the consumer of slot '{}' (target '{}') is away, from {}"
					+ " through its copy '{}'", slot.slotName(), target.name(), journal.from, journal.copy);
			return journal;
		}
		catch (RuntimeException ex) {
			String why = FailureDescription.messageOf(ex);
			if (!why.equals(this.notKept.put(key, why))) {
				logger.warn("The consumer of slot '{}' (target '{}') is away and its gap cannot be journaled: {}",
						slot.slotName(), target.name(), why);
			}
			return null;
		}
	}

	// A poll's feed and a recreate's close (from the API's thread) take turns on a
	// journal.
	private void feed(Target target, Kept journal, Long upto, int pages) {
		synchronized (journal) {
			feedNow(target, journal, upto, pages);
		}
	}

	private void feedNow(Target target, Kept journal, Long upto, int pages) {
		if (journal.incomplete != null) {
			return;
		}
		try {
			target.primary().withConnection((connection) -> {
				journal.keys.use(connection);
				for (int page = 0; page < pages; page++) {
					SlotCopies.Page read = SlotCopies.peek(connection, journal.copy, journal.publications, upto,
							this.settings.pageChanges(), journal.journal);
					store(target, journal);
					SlotCopies.advance(connection, journal.copy, read.end());
					if (read.messages() < this.settings.pageChanges()) {
						break;
					}
				}
				journal.failing = null;
				return null;
			});
		}
		catch (RuntimeException ex) {
			FailureDescription failure = FailureDescription.of(ex, null);
			// Nothing is consumed from the copy before it is kept: a page that failed on
			// the way (the server away, restarting, a statement cut short) is read again
			// at the next poll.
			if (worthAnotherTry(failure.sqlState())) {
				if (journal.failing == null) {
					logger.warn("Decoding the gap journal of slot '{}' (target '{}') failed, tried again at the next"
							+ " poll: {}", journal.slot, target.name(), failure.message());
				}
				journal.failing = failure.message();
				return;
			}
			// A copy is not a failover slot: a switchover or failover leaves it behind.
			// A publication the consumer names and the database lacks is undefined
			// too: that copy stays, and is dropped as no journal can read it.
			journal.copyGone = UNDEFINED_OBJECT.equals(failure.sqlState()) && !copyExists(target, journal);
			if (!journal.copyGone) {
				dropCopy(target, journal);
			}
			journal.incomplete = journal.copyGone
					? "its copy '" + journal.copy + "' is gone from the server after "
							+ Lsn.format(journal.journal.position())
							+ " (a switchover or failover leaves a copy behind: it is not a failover slot)"
					: "decoding its copy failed after " + Lsn.format(journal.journal.position()) + ": "
							+ failure.message();
			logger.warn("The gap journal of slot '{}' (target '{}') is incomplete: {}", journal.slot, target.name(),
					journal.incomplete);
		}
	}

	// Gone unless it is seen: a server that cannot answer now is taken as a switchover's.
	private static boolean copyExists(Target target, Kept journal) {
		try {
			return target.primary()
				.withConnection((connection) -> SlotCopies.confirmed(connection, journal.copy)) != null;
		}
		catch (RuntimeException ex) {
			return false;
		}
	}

	private static boolean worthAnotherTry(String sqlState) {
		return sqlState != null && (OBJECT_IN_USE.equals(sqlState) || TRANSIENT.contains(sqlState.substring(0, 2)));
	}

	// Kept in the server before the copy is consumed past it: an instance that stops
	// in between leaves a journal that its copy decodes again, never one it skipped.
	private void store(Target target, Kept journal) {
		List<GapJournal.StoredTable> changes = journal.journal.drainChanges();
		List<GapJournal.Event> events = journal.journal.drainEvents();
		if (journal.notStored != null) {
			return;
		}
		try {
			this.stores.save(target, header(journal), changes, events);
		}
		catch (RuntimeException ex) {
			journal.notStored = "storing it in database '" + this.settings.database() + "' failed: "
					+ FailureDescription.messageOf(ex);
			logger.warn("The gap journal of slot '{}' (target '{}') is kept in memory only from now on: {}",
					journal.slot, target.name(), journal.notStored);
			this.stores.delete(target, journal.slot);
		}
	}

	private static GapJournalStore.Header header(Kept journal) {
		return new GapJournalStore.Header(journal.slot, journal.database, journal.copy, journal.from,
				journal.journal.position(), journal.journal.transactions(), journal.since, journal.publications,
				journal.incomplete);
	}

	// A copy found without a journal of this instance: the journal an earlier owner kept
	// goes on where it was, when it was kept up to where its copy was consumed; else the
	// copy is dropped (the caller starts again from the slot when it can). The caller
	// keeps what it returns.
	private Kept adopt(Target target, String slot, Long copyConfirmed) {
		Optional<GapJournalStore.Stored> stored = this.stores.load(target, slot);
		String copy = SlotCopies.copyOf(slot);
		String refused = stored.isEmpty() ? "no journal of it is stored"
				: (copyConfirmed == null) ? "the copy has no confirmed position"
						: (copyConfirmed > stored.get().header().position())
								? "the copy was consumed to " + Lsn.format(copyConfirmed)
										+ ", past the stored journal's " + Lsn.format(stored.get().header().position())
								: null;
		if (refused != null) {
			this.stores.delete(target, slot);
			// The poll's list of slots may still hold a copy just dropped.
			if (dropCopy(target, slot, copy)) {
				logger.info("The copy '{}' of slot '{}' (target '{}') was not adopted and is dropped: {}", copy, slot,
						target.name(), refused);
			}
			return null;
		}
		GapJournalStore.Header header = stored.get().header();
		PrimaryKeys keys = new PrimaryKeys();
		GapJournal journal = restored(target, slot, stored.get(), keys);
		Kept adopted = new Kept(slot, header.database(), copy, header.from(), header.publications(), journal, keys,
				header.since());
		adopted.incomplete = header.incomplete();
		adopted.notStored = this.stores.notStoredBecause(header.database());
		if (adopted.notStored == null) {
			this.stores.sweep(target);
		}
		logger.info(
				"Adopted the gap journal of slot '{}' (target '{}') an earlier owner kept: since {} from {},"
						+ " read to {}",
				slot, target.name(), header.since(), header.from(), Lsn.format(header.position()));
		return adopted;
	}

	private GapJournal restored(Target target, String slot, GapJournalStore.Stored stored, PrimaryKeys keys) {
		GapJournal journal = new GapJournal(this.settings.maxKeys(), keys, outbox(target, slot),
				this.settings.maxEventBytes().toBytes());
		journal.restore(stored.header().position(), stored.header().transactions(), stored.tables());
		journal.restoreEvents(stored.events());
		if (stored.header().from() != null) {
			journal.since(Lsn.parse(stored.header().from()));
		}
		return journal;
	}

	@Override
	public Optional<Gap> kept(Target target, String slot, long newStart) {
		if (!this.settings.enabled()) {
			return Optional.empty();
		}
		Optional<GapJournalStore.Stored> stored = this.stores.load(target, GapJournalStore.CLOSED + slot);
		if (stored.isEmpty() || stored.get().closedTo() == null || Lsn.parse(stored.get().closedTo()) != newStart) {
			return Optional.empty();
		}
		Gap gap = new Gap(stored.get().header().from(), stored.get().closedTo(),
				restored(target, slot, stored.get(), new PrimaryKeys()), stored.get().header().incomplete());
		logger.info("Read the gap of slot '{}' (target '{}') that the instance which recreated it kept: {}", slot,
				target.name(), gap.describe());
		this.closedKept.add(key(target, slot));
		return Optional.of(gap);
	}

	@Override
	public void forget(Target target, String slot) {
		if (this.closedKept.remove(key(target, slot))) {
			this.stores.delete(target, GapJournalStore.CLOSED + slot);
		}
	}

	/**
	 * At a recreate: reads the slot's journal up to where its new slot starts, drops its
	 * copy and hands it over as the gap; a complete one stays stored (when the journal
	 * was) for the owner that may complete the recreate's handover.
	 * @param target the target
	 * @param slot the slot made anew
	 * @param lostAt the lost slot's last confirmed position, where the gap begins;
	 * {@code null} when not known (then where the journal began)
	 * @param newStart where the new slot starts (its first confirmed position)
	 * @return the gap, empty when no journal was kept for the slot
	 */
	public Optional<Gap> close(Target target, String slot, String lostAt, String newStart) {
		Kept journal = this.kept.remove(key(target, slot));
		this.awaySince.remove(key(target, slot));
		if (journal == null) {
			journal = adoptAtClose(target, slot);
		}
		if (journal == null) {
			return Optional.empty();
		}
		if (newStart != null) {
			feed(target, journal, Lsn.parse(newStart), Integer.MAX_VALUE);
			if (journal.incomplete == null && journal.journal.position() < Lsn.parse(newStart)) {
				journal.incomplete = "its copy could not be read up to the new slot's start " + newStart + ": "
						+ journal.failing;
			}
		}
		else if (journal.incomplete == null) {
			journal.incomplete = "the new slot's start is not known";
		}
		if (lostAt != null) {
			rebase(journal, lostAt);
		}
		dropCopy(target, journal);
		if (journal.incomplete == null && journal.notStored == null) {
			this.stores.keepClosed(target, slot, journal.from, newStart);
			this.closedKept.add(key(target, slot));
		}
		else {
			this.stores.delete(target, slot);
		}
		Gap gap = new Gap(journal.from, newStart, journal.journal, journal.incomplete);
		logger.info("The gap of slot '{}' (target '{}'): {}", slot, target.name(), gap.describe());
		this.last.put(key(target, slot), new Closed(this.clock.instant(), gap));
		this.meters.closed(target.name(), slot, gap);
		return Optional.of(gap);
	}

	// The outbox tables the slot's settings name, read when its journal starts or is
	// adopted.
	private static Predicate<String> outbox(Target target, String slot) {
		Set<String> tables = Set
			.copyOf(target.slots().policy(slot).map((policy) -> policy.resnapshot().outboxes()).orElse(List.of()));
		return tables::contains;
	}

	// A heal may come before the poll that adopts an earlier owner's journal.
	private Kept adoptAtClose(Target target, String slot) {
		try {
			Long confirmed = target.primary()
				.withConnection((connection) -> SlotCopies.confirmed(connection, SlotCopies.copyOf(slot)));
			if (confirmed == null) {
				return null;
			}
			return adopt(target, slot, confirmed);
		}
		catch (RuntimeException ex) {
			logger.warn("The copy of slot '{}' (target '{}') cannot be read: {}", slot, target.name(),
					FailureDescription.messageOf(ex));
			return null;
		}
	}

	/**
	 * The journal kept of a slot now, as far as it has read.
	 * @param target the target's name
	 * @param slot the slot
	 * @param keys how many deleted keys to list per table; 0 for none
	 * @return the reading, empty when this instance keeps no journal of the slot
	 */
	public Optional<GapReading> journaling(String target, String slot, int keys) {
		Kept journal = this.kept.get(key(target, slot));
		if (journal == null) {
			return Optional.empty();
		}
		synchronized (journal) {
			return Optional.of(GapReading.of(journal.since,
					new Gap(journal.from, Lsn.format(journal.journal.position()), journal.journal, journal.incomplete),
					keys));
		}
	}

	/**
	 * The last gap a recreate of the slot closed in this instance.
	 * @param target the target's name
	 * @param slot the slot
	 * @param keys how many deleted keys to list per table; 0 for none
	 * @return the reading, empty when none was closed here
	 */
	public Optional<GapReading> last(String target, String slot, int keys) {
		return Optional.ofNullable(this.last.get(key(target, slot)))
			.map((closed) -> GapReading.of(closed.at(), closed.gap(), keys));
	}

	/**
	 * Why the slot's consumer is away and no journal is kept of it.
	 * @param target the target's name
	 * @param slot the slot
	 * @return the reason, empty when none was met
	 */
	public Optional<String> notJournaledBecause(String target, String slot) {
		return Optional.ofNullable(this.notKept.get(key(target, slot)));
	}

	/**
	 * The journals kept of a target's slots, for its read-outs.
	 * @param target the target's name
	 * @return by slot: since when, from where, how far read, and why not exact
	 */
	public Map<String, String> describe(String target) {
		Map<String, String> described = new java.util.TreeMap<>();
		this.kept.forEach((key, journal) -> {
			if (key.startsWith(target + "/")) {
				described.put(journal.slot, "since " + journal.since + " from " + journal.from + ", read to "
						+ Lsn.format(journal.journal.position())
						+ ((journal.incomplete != null) ? ", incomplete: " + journal.incomplete : "")
						+ ((journal.failing != null) ? ", decoding failed, tried again at each poll: " + journal.failing
								: "")
						+ ((journal.notStored != null)
								? ", kept in memory only (it does not survive a restart): " + journal.notStored : ""));
			}
		});
		this.notKept.forEach((key, why) -> {
			if (key.startsWith(target + "/")) {
				described.putIfAbsent(key.substring(target.length() + 1), "not journaled: " + why);
			}
		});
		return described;
	}

	private void end(Target target, Kept journal, String why) {
		this.kept.remove(key(target, journal.slot));
		dropCopy(target, journal);
		this.stores.delete(target, journal.slot);
		logger.info("The gap journal of slot '{}' (target '{}') ended: {}", journal.slot, target.name(), why);
	}

	private void dropCopy(Target target, Kept journal) {
		dropCopy(target, journal.slot, journal.copy);
	}

	private boolean dropCopy(Target target, String slot, String copy) {
		try {
			return target.primary().withConnection((connection) -> SlotCopies.drop(connection, copy));
		}
		catch (RuntimeException ex) {
			logger.warn("The copy '{}' of slot '{}' (target '{}') could not be dropped, the next poll drops it: {}",
					copy, slot, target.name(), FailureDescription.messageOf(ex));
			return false;
		}
	}

	private void dropOrphans(Target target, List<ReplicationSlot> slots) {
		List<String> orphans = new ArrayList<>();
		for (ReplicationSlot slot : slots) {
			if (slot.slotName().startsWith(SlotCopies.PREFIX) && !Boolean.TRUE.equals(slot.active())
					&& this.kept.values().stream().noneMatch((journal) -> journal.copy.equals(slot.slotName()))) {
				orphans.add(slot.slotName());
			}
		}
		if (orphans.isEmpty()) {
			return;
		}
		try {
			target.primary().withConnection((connection) -> {
				for (String orphan : orphans) {
					if (SlotCopies.drop(connection, orphan)) {
						logger.info("Dropped the copy '{}' (target '{}'): no journal of this instance reads it", orphan,
								target.name());
					}
				}
				return null;
			});
		}
		catch (RuntimeException ex) {
			logger.warn("Copies of slots no journal reads could not be dropped (target '{}'): {}", target.name(),
					FailureDescription.messageOf(ex));
		}
	}

	private void forget(Target target) {
		String prefix = target.name() + "/";
		this.kept.keySet().removeIf((key) -> key.startsWith(prefix));
		this.awaySince.keySet().removeIf((key) -> key.startsWith(prefix));
		this.notKept.keySet().removeIf((key) -> key.startsWith(prefix));
		this.stores.forget(target.name());
	}

	/**
	 * Closes the nodes of the journals' stores.
	 */
	@Override
	public void close() {
		this.stores.close();
	}

	private static List<String> allPublications(Connection connection) throws SQLException {
		List<String> names = new ArrayList<>();
		try (PreparedStatement statement = connection
			.prepareStatement("SELECT pubname FROM pg_catalog.pg_publication ORDER BY pubname");
				ResultSet result = statement.executeQuery()) {
			while (result.next()) {
				names.add(result.getString(1));
			}
		}
		return names;
	}

	private static String key(Target target, String slot) {
		return key(target.name(), slot);
	}

	private static String key(String target, String slot) {
		return target + "/" + slot;
	}

	private record Closed(Instant at, Gap gap) {
	}

	private static final class Kept {

		private final String slot;

		private final String database;

		private final String copy;

		private volatile String from;

		private final List<String> publications;

		private final GapJournal journal;

		private final PrimaryKeys keys;

		private final Instant since;

		private volatile String incomplete;

		private volatile boolean copyGone;

		// Why it is kept in this instance's memory only; null while the server keeps it.
		private volatile String notStored;

		// Why the last feed failed, to be tried again; null when it did not.
		private volatile String failing;

		Kept(String slot, String database, String copy, String from, List<String> publications, GapJournal journal,
				PrimaryKeys keys, Instant since) {
			this.slot = slot;
			this.database = database;
			this.copy = copy;
			this.from = from;
			this.publications = publications;
			this.journal = journal;
			this.keys = keys;
			this.since = since;
		}

	}

}
