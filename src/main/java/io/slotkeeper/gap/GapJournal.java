package io.slotkeeper.gap;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;
import java.util.function.Predicate;

import io.slotkeeper.sessions.Lsn;

/**
 * What changed while a slot's consumer was away, read from a copy of its slot: per
 * captured table, each key's net change over the gap (inserted, updated or deleted, with
 * the commit LSN of its last change) and every truncate. A key inserted and deleted again
 * within the gap is kept as deleted: the consumer may have read the insert before its
 * slot confirmed it (Debezium confirms after its offsets are committed), and a delete of
 * a row it never had does no harm. Where the journal cannot tell a table's changes
 * exactly (no replica identity, too many changes, a key not sent) it says so for that
 * table, and that table must be read whole.
 * <p>
 * Of an outbox table (one whose inserts are events, routed by Debezium's
 * {@code EventRouter} and usually deleted right after) it also keeps every row inserted
 * in the gap whole, in commit order: the events the consumer missed, which no re-read can
 * find again.
 * <p>
 * Fed one message at a time in the order decoding returns them; not thread-safe.
 */
public final class GapJournal {

	/**
	 * What a key's row went through, net, over the gap.
	 */
	public enum Change {

		/** Inserted in the gap, present after it. */
		INSERTED,

		/** Present before and after the gap, changed in it. */
		UPDATED,

		/** Absent after the gap, deleted in it. */
		DELETED

	}

	private final int maxKeys;

	private final Function<PgOutputMessage.Relation, List<String>> primaryKey;

	private final Map<Integer, PgOutputMessage.Relation> relations = new HashMap<>();

	private final Map<String, TableGap> tables = new LinkedHashMap<>();

	private final Predicate<String> outbox;

	private final List<Event> events = new ArrayList<>();

	private int eventsDrained;

	private final long maxEventBytes;

	private long eventBytes;

	private long eventSequence;

	private int keys;

	private long transactionLsn;

	private long position;

	private long transactions;

	// A transaction decoded again (a page read but not yet consumed from the copy when
	// the instance stopped) is taken once.
	private boolean replayed;

	/**
	 * An empty journal.
	 * @param maxKeys how many keys it keeps over every table; past it, the table that
	 * would grow it is read whole
	 * @param primaryKey a table's primary key columns, for a table whose replica identity
	 * is its whole row ({@code FULL}) or nothing; empty when it has none
	 */
	public GapJournal(int maxKeys, Function<PgOutputMessage.Relation, List<String>> primaryKey) {
		this(maxKeys, primaryKey, (table) -> false, 0);
	}

	/**
	 * An empty journal that also keeps the rows inserted into outbox tables.
	 * @param maxKeys how many keys and events it keeps over every table; past it, the
	 * table that would grow it is read whole, and an outbox table's events are incomplete
	 * @param primaryKey a table's primary key columns, for a table whose replica identity
	 * is its whole row ({@code FULL}) or nothing; empty when it has none
	 * @param outbox whether a table ({@code schema.table}) is an outbox table
	 * @param maxEventBytes how many characters of events' values it keeps at most; past
	 * it, an outbox table's later events are not kept and it says so
	 */
	public GapJournal(int maxKeys, Function<PgOutputMessage.Relation, List<String>> primaryKey,
			Predicate<String> outbox, long maxEventBytes) {
		this.maxEventBytes = maxEventBytes;
		this.maxKeys = maxKeys;
		this.primaryKey = primaryKey;
		this.outbox = outbox;
	}

	/**
	 * Takes the next decoded message.
	 * @param message the message
	 */
	public void apply(PgOutputMessage message) {
		if (message instanceof PgOutputMessage.Begin begin) {
			this.transactionLsn = begin.finalLsn();
			this.replayed = begin.finalLsn() < this.position;
		}
		else if (message instanceof PgOutputMessage.Commit commit) {
			if (!this.replayed) {
				this.position = commit.endLsn();
				this.transactions++;
			}
			this.replayed = false;
		}
		else if (message instanceof PgOutputMessage.Relation relation) {
			this.relations.put(relation.oid(), relation);
			table(relation).layout(relation, this.primaryKey);
		}
		else if (this.replayed) {
			return;
		}
		else if (message instanceof PgOutputMessage.Insert insert) {
			keyed(insert.relation(), insert.row(), Change.INSERTED);
			event(insert);
		}
		else if (message instanceof PgOutputMessage.Update update) {
			updated(update.relation(), update.old(), update.row());
		}
		else if (message instanceof PgOutputMessage.Delete delete) {
			keyed(delete.relation(), delete.old(), Change.DELETED);
		}
		else if (message instanceof PgOutputMessage.Truncate truncate) {
			for (int oid : truncate.relations()) {
				TableGap table = table(oid);
				this.keys -= table.keys.size();
				table.clear();
				table.truncates.add(this.transactionLsn);
			}
		}
	}

	private void event(PgOutputMessage.Insert insert) {
		PgOutputMessage.Relation relation = this.relations.get(insert.relation());
		if (!this.outbox.test(relation.qualifiedName())) {
			return;
		}
		TableGap table = table(relation);
		if (table.eventsIncomplete != null) {
			return;
		}
		if (this.keys + this.events.size() >= this.maxKeys) {
			table.eventsIncomplete = "more than " + this.maxKeys + " keys and events in the gap: its events after "
					+ Lsn.format(this.transactionLsn) + " were not kept";
			return;
		}
		List<String> columns = new ArrayList<>(relation.columns().size());
		List<String> values = new ArrayList<>(relation.columns().size());
		long size = 0;
		for (int index = 0; index < relation.columns().size(); index++) {
			PgOutputMessage.Value value = (index < insert.row().size()) ? insert.row().get(index) : null;
			columns.add(relation.columns().get(index).name());
			values.add((value != null && value.kind() == 't') ? value.text() : null);
			size += (value != null && value.text() != null) ? value.text().length() : 0;
		}
		if (this.eventBytes + size > this.maxEventBytes) {
			table.eventsIncomplete = "more than " + this.maxEventBytes + " bytes of outbox events in the gap"
					+ " (gap-journal.max-event-bytes): its events after " + Lsn.format(this.transactionLsn)
					+ " were not kept";
			return;
		}
		this.eventBytes += size;
		this.events.add(new Event(++this.eventSequence, this.transactionLsn, relation.qualifiedName(),
				Collections.unmodifiableList(columns), Collections.unmodifiableList(values)));
	}

	private void keyed(int relation, List<PgOutputMessage.Value> row, Change change) {
		TableGap table = table(relation);
		List<String> key = table.key(row);
		if (key != null) {
			record(table, key, change);
		}
	}

	// An update that changed the key deletes the old key's row and inserts the new one's.
	private void updated(int relation, List<PgOutputMessage.Value> old, List<PgOutputMessage.Value> row) {
		TableGap table = table(relation);
		List<String> key = table.key(row);
		if (key == null) {
			return;
		}
		List<String> before = (old != null) ? table.key(old) : null;
		if (before != null && !before.equals(key)) {
			record(table, before, Change.DELETED);
			record(table, key, Change.INSERTED);
		}
		else {
			record(table, key, Change.UPDATED);
		}
	}

	// A key's first change says whether its row existed before the gap (only an insert
	// says it did not); its last whether it exists after.
	private void record(TableGap table, List<String> key, Change change) {
		if (table.overflowed) {
			return;
		}
		KeyState state = table.keys.get(key);
		if (state == null) {
			if (this.keys >= this.maxKeys) {
				this.keys -= table.keys.size();
				table.clear();
				table.overflowed = true;
				table.notExact("more than " + this.maxKeys + " keys changed in the gap: the whole table is read");
				return;
			}
			this.keys++;
			state = new KeyState();
			table.keys.put(key, state);
		}
		state.add(this.transactionLsn, change);
		table.changedKeys.add(key);
	}

	/**
	 * Forgets every change committed before a position: the gap now starts there (its
	 * consumer, still reading, confirmed up to it). A key's net change is then told from
	 * its changes after it alone.
	 * @param confirmed the position; transactions whose commit is before it are dropped
	 */
	public void since(long confirmed) {
		for (TableGap table : this.tables.values()) {
			int before = table.keys.size();
			table.keys.values().removeIf((state) -> state.dropBefore(confirmed));
			this.keys -= before - table.keys.size();
			table.truncates.removeIf((lsn) -> lsn < confirmed);
		}
		int before = this.events.size();
		this.events.stream()
			.filter((event) -> event.lsn() < confirmed)
			.forEach((event) -> this.eventBytes -= size(event));
		this.events.removeIf((event) -> event.lsn() < confirmed);
		this.eventsDrained = Math.max(0, this.eventsDrained - (before - this.events.size()));
	}

	/**
	 * The rows inserted in the gap into an outbox table, in commit order.
	 * @param table the table's qualified name
	 * @return its events, empty when it is not an outbox table or had none
	 */
	public List<Event> events(String table) {
		return this.events.stream().filter((event) -> event.table().equals(table)).toList();
	}

	private TableGap table(int oid) {
		PgOutputMessage.Relation relation = this.relations.get(oid);
		if (relation == null) {
			throw new IllegalStateException("a change of relation " + oid + " before its layout");
		}
		return table(relation);
	}

	// Every table a page touches is stored again with its state (its layout may have
	// changed why it is not exact).
	private TableGap table(PgOutputMessage.Relation relation) {
		TableGap table = this.tables.computeIfAbsent(relation.qualifiedName(), (name) -> new TableGap());
		table.touched = true;
		return table;
	}

	/**
	 * Decoding read every transaction committed before a position: the journal has read
	 * to it, though none of them carried a change of its tables.
	 * @param lsn the position
	 */
	public void readTo(long lsn) {
		this.position = Math.max(this.position, lsn);
	}

	/**
	 * The position decoding reached: the end of the last transaction taken.
	 * @return the LSN, 0 before any
	 */
	public long position() {
		return this.position;
	}

	/**
	 * How many transactions were taken.
	 * @return the count
	 */
	public long transactions() {
		return this.transactions;
	}

	/**
	 * Every table a change was decoded for.
	 * @return by qualified name, in the order first seen
	 */
	public Map<String, TableSummary> tables() {
		Map<String, TableSummary> summaries = new LinkedHashMap<>();
		Map<String, Integer> events = new HashMap<>();
		this.events.forEach((event) -> events.merge(event.table(), 1, Integer::sum));
		this.tables.forEach((name, table) -> summaries.put(name, table.summary(events.getOrDefault(name, 0))));
		return Collections.unmodifiableMap(summaries);
	}

	/**
	 * The keys of a table whose net change over the gap was the one asked.
	 * @param table the table's qualified name
	 * @param change the change
	 * @return each key's values in the order of {@link TableSummary#keyColumns()}
	 */
	public List<List<String>> keys(String table, Change change) {
		TableGap gap = this.tables.get(table);
		if (gap == null) {
			return List.of();
		}
		List<List<String>> keys = new ArrayList<>();
		gap.keys.forEach((key, state) -> {
			if (state.change() == change) {
				keys.add(key);
			}
		});
		return keys;
	}

	/**
	 * What changed in the journal since the last call, for its store: each table whose
	 * keys or state changed, with the keys that changed.
	 * @return the tables, each with its changed keys' changes
	 */
	List<StoredTable> drainChanges() {
		List<StoredTable> drained = new ArrayList<>();
		this.tables.forEach((name, table) -> {
			if (table.touched) {
				Map<List<String>, StoredKey> keys = new LinkedHashMap<>();
				for (List<String> key : table.changedKeys) {
					KeyState state = table.keys.get(key);
					if (state != null) {
						keys.put(key, state.stored());
					}
				}
				drained.add(new StoredTable(name, table.keyColumns, table.whyNotExact, List.copyOf(table.truncates),
						table.overflowed, table.eventsIncomplete, table.cleared, keys));
				table.changedKeys.clear();
				table.cleared = false;
				table.touched = false;
			}
		});
		return drained;
	}

	/**
	 * Takes back what a store kept of a journal.
	 * @param position the position it had read to
	 * @param transactions how many transactions it had taken
	 * @param stored its tables and keys
	 */
	void restore(long position, long transactions, List<StoredTable> stored) {
		this.position = position;
		this.transactions = transactions;
		for (StoredTable each : stored) {
			TableGap table = this.tables.computeIfAbsent(each.name(), (name) -> new TableGap());
			table.keyColumns = each.keyColumns();
			table.whyNotExact = each.whyNotExact();
			table.truncates.addAll(each.truncates());
			table.overflowed = each.overflowed();
			table.eventsIncomplete = each.eventsIncomplete();
			each.keys().forEach((key, runs) -> {
				if (table.keys.put(key, KeyState.of(runs)) == null) {
					this.keys++;
				}
			});
		}
	}

	/**
	 * A table's state as a store keeps it.
	 *
	 * @param name the table's qualified name
	 * @param keyColumns its key's columns
	 * @param whyNotExact why its changes are not known key by key, {@code null} when they
	 * are
	 * @param truncates the commit positions of its truncates
	 * @param overflowed whether its keys were given up for too many
	 * @param eventsIncomplete why not every outbox event of it was kept, {@code null}
	 * when every one was
	 * @param cleared whether its keys stored before were dropped (a truncate, an
	 * overflow)
	 * @param keys its keys that changed, each with its changes
	 */
	record StoredTable(String name, List<String> keyColumns, String whyNotExact, List<Long> truncates,
			boolean overflowed, String eventsIncomplete, boolean cleared, Map<List<String>, StoredKey> keys) {
	}

	/**
	 * A row inserted into an outbox table in the gap: an event the consumer missed.
	 *
	 * @param sequence its place among the journal's events, from 1
	 * @param lsn its transaction's commit position
	 * @param table the table's qualified name
	 * @param columns the row's columns, in the table's order
	 * @param values each column's value as PostgreSQL's text, {@code null} for SQL NULL
	 */
	public record Event(long sequence, long lsn, String table, List<String> columns, List<String> values) {
	}

	/**
	 * The events taken since the last call, for its store.
	 * @return them, in order
	 */
	List<Event> drainEvents() {
		List<Event> drained = List.copyOf(this.events.subList(this.eventsDrained, this.events.size()));
		this.eventsDrained = this.events.size();
		return drained;
	}

	private static long size(Event event) {
		return event.values().stream().mapToLong((value) -> (value != null) ? value.length() : 0).sum();
	}

	/**
	 * Takes back the events a store kept of a journal.
	 * @param stored its events, in order
	 */
	void restoreEvents(List<Event> stored) {
		this.events.addAll(stored);
		stored.forEach((event) -> this.eventBytes += size(event));
		this.eventsDrained = this.events.size();
		stored.forEach((event) -> this.eventSequence = Math.max(this.eventSequence, event.sequence()));
	}

	/**
	 * A key's runs of changes as a store keeps them.
	 *
	 * @param lsns each run's last commit position
	 * @param kinds each run's change: {@code I}, {@code U} or {@code D}
	 */
	record StoredKey(long[] lsns, String kinds) {
	}

	/**
	 * One table's gap in numbers.
	 *
	 * @param keyColumns the columns its keys are made of
	 * @param inserted keys inserted
	 * @param updated keys updated
	 * @param deleted keys deleted
	 * @param truncates the commit positions of its truncates
	 * @param whyNotExact why its changes cannot be told key by key, {@code null} when
	 * they can
	 * @param events how many rows of it the journal kept whole as outbox events
	 * @param eventsIncomplete why not every event of it was kept, {@code null} when every
	 * one was (or it is no outbox table)
	 */
	public record TableSummary(List<String> keyColumns, int inserted, int updated, int deleted, List<String> truncates,
			String whyNotExact, int events, String eventsIncomplete) {

		/**
		 * Whether the table's changes are known key by key, with no truncate.
		 * @return whether its keys alone need reading again
		 */
		public boolean exact() {
			return this.whyNotExact == null && this.truncates.isEmpty();
		}

		/**
		 * Why the table's keys alone do not say what the consumer missed.
		 * @return why it is not exact, or that it was truncated in the gap; {@code null}
		 * when it is exact
		 */
		public String whyReadWhole() {
			if (this.whyNotExact != null) {
				return this.whyNotExact;
			}
			return this.truncates.isEmpty() ? null : "truncated in the gap at " + String.join(", ", this.truncates);
		}

	}

	// A key's changes since the gap's start, in commit order, each run of one kind kept
	// as one (its last commit): the first says whether the row existed before, the last
	// whether it exists after, from whichever start the gap is moved to.
	private static final class KeyState {

		private long[] lsns = new long[1];

		private Change[] kinds = new Change[1];

		private int first;

		private int end;

		void add(long lsn, Change kind) {
			if (this.end > this.first && this.kinds[this.end - 1] == kind) {
				this.lsns[this.end - 1] = lsn;
				return;
			}
			if (this.end == this.lsns.length) {
				int size = this.end - this.first;
				long[] lsns = new long[Math.max(2, size * 2)];
				Change[] kinds = new Change[lsns.length];
				System.arraycopy(this.lsns, this.first, lsns, 0, size);
				System.arraycopy(this.kinds, this.first, kinds, 0, size);
				this.lsns = lsns;
				this.kinds = kinds;
				this.first = 0;
				this.end = size;
			}
			this.lsns[this.end] = lsn;
			this.kinds[this.end] = kind;
			this.end++;
		}

		// Whether nothing is left.
		boolean dropBefore(long confirmed) {
			while (this.first < this.end && this.lsns[this.first] < confirmed) {
				this.first++;
			}
			return this.first == this.end;
		}

		StoredKey stored() {
			StringBuilder kinds = new StringBuilder(this.end - this.first);
			for (int index = this.first; index < this.end; index++) {
				kinds.append(this.kinds[index].name().charAt(0));
			}
			return new StoredKey(Arrays.copyOfRange(this.lsns, this.first, this.end), kinds.toString());
		}

		static KeyState of(StoredKey stored) {
			KeyState state = new KeyState();
			for (int index = 0; index < stored.lsns().length; index++) {
				state.add(stored.lsns()[index], switch (stored.kinds().charAt(index)) {
					case 'I' -> Change.INSERTED;
					case 'U' -> Change.UPDATED;
					default -> Change.DELETED;
				});
			}
			return state;
		}

		Change change() {
			boolean existedBefore = this.kinds[this.first] != Change.INSERTED;
			boolean existsAfter = this.kinds[this.end - 1] != Change.DELETED;
			return !existsAfter ? Change.DELETED : existedBefore ? Change.UPDATED : Change.INSERTED;
		}

	}

	private static final class TableGap {

		private final Map<List<String>, KeyState> keys = new LinkedHashMap<>();

		private final List<Long> truncates = new ArrayList<>();

		private List<String> keyColumns = List.of();

		private int[] keyIndexes = new int[0];

		private String whyNotExact;

		private boolean overflowed;

		private String eventsIncomplete;

		// Whether a page touched it since the store took its state.
		private boolean touched;

		private final Set<List<String>> changedKeys = new HashSet<>();

		private boolean cleared;

		void clear() {
			this.keys.clear();
			this.changedKeys.clear();
			this.cleared = true;
		}

		void layout(PgOutputMessage.Relation relation, Function<PgOutputMessage.Relation, List<String>> primaryKey) {
			List<String> names = relation.columns().stream().map(PgOutputMessage.Column::name).toList();
			List<String> key = switch (relation.replicaIdentity()) {
				case 'f', 'n' -> primaryKey.apply(relation);
				default -> relation.columns()
					.stream()
					.filter(PgOutputMessage.Column::key)
					.map(PgOutputMessage.Column::name)
					.toList();
			};
			if (relation.replicaIdentity() == 'n') {
				notExact("REPLICA IDENTITY NOTHING: its deletes are not decoded");
			}
			else if (key.isEmpty() || !names.containsAll(key)) {
				notExact("no key to tell its rows by (REPLICA IDENTITY " + identity(relation.replicaIdentity())
						+ " and no published primary key)");
			}
			this.keyColumns = List.copyOf(key);
			this.keyIndexes = key.stream().mapToInt(names::indexOf).toArray();
		}

		void notExact(String why) {
			if (this.whyNotExact == null) {
				this.whyNotExact = why;
			}
		}

		List<String> key(List<PgOutputMessage.Value> row) {
			if (row == null || this.keyIndexes.length == 0) {
				return null;
			}
			List<String> key = new ArrayList<>(this.keyIndexes.length);
			for (int index : this.keyIndexes) {
				PgOutputMessage.Value value = (index < row.size()) ? row.get(index) : null;
				if (value == null || value.kind() != 't') {
					notExact("a change came without its key's value");
					return null;
				}
				key.add(value.text());
			}
			return List.copyOf(key);
		}

		TableSummary summary(int events) {
			int inserted = 0;
			int updated = 0;
			int deleted = 0;
			for (KeyState state : this.keys.values()) {
				switch (state.change()) {
					case INSERTED -> inserted++;
					case UPDATED -> updated++;
					case DELETED -> deleted++;
				}
			}
			return new TableSummary(this.keyColumns, inserted, updated, deleted,
					this.truncates.stream().map(Lsn::format).toList(), this.whyNotExact, events, this.eventsIncomplete);
		}

		private static String identity(char code) {
			return switch (code) {
				case 'f' -> "FULL";
				case 'n' -> "NOTHING";
				case 'i' -> "USING INDEX";
				default -> "DEFAULT";
			};
		}

	}

}
