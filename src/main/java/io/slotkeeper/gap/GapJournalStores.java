package io.slotkeeper.gap;

import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.slotkeeper.fleet.Target;
import io.slotkeeper.sessions.FailureDescription;
import io.slotkeeper.sessions.Node;

/**
 * Where each target's journals are kept: its primary's server, in the configured database
 * ({@code gap-journal.database}), reached with the target's login through a node of its
 * own that is opened on first use and closed when the target is no longer owned here.
 */
final class GapJournalStores implements AutoCloseable {

	private static final Logger logger = LoggerFactory.getLogger(GapJournalStores.class);

	private final String database;

	private final Map<String, Place> places = new ConcurrentHashMap<>();

	/**
	 * @param database the database journals are kept in; blank for none (in memory only)
	 */
	GapJournalStores(String database) {
		this.database = database;
	}

	/**
	 * Why a slot's journal cannot be kept in the server.
	 * @param captured the slot's database
	 * @return the reason, {@code null} when it can
	 */
	String notStoredBecause(String captured) {
		if (this.database.isBlank()) {
			return "gap-journal.database is empty";
		}
		if (this.database.equals(captured)) {
			return "gap-journal.database is the captured database '" + captured
					+ "', whose publications could carry the journal";
		}
		return null;
	}

	/**
	 * Stores what changed in a journal.
	 * @param target the journaled slot's target
	 * @param header the journal's state
	 * @param changes its tables and keys that changed
	 * @param events the outbox events it took since
	 * @throws io.slotkeeper.problem.ProblemException when the store cannot be reached or
	 * refuses
	 */
	void save(Target target, GapJournalStore.Header header, List<GapJournal.StoredTable> changes,
			List<GapJournal.Event> events) {
		node(target).withConnection((connection) -> {
			GapJournalStore.prepare(connection);
			GapJournalStore.save(connection, header, changes, events);
			return null;
		});
	}

	/**
	 * The journal an earlier owner kept of a slot.
	 * @param target the slot's target
	 * @param slot the slot
	 * @return the journal, empty when none is kept or the store cannot be read (said in
	 * the log)
	 */
	Optional<GapJournalStore.Stored> load(Target target, String slot) {
		if (this.database.isBlank()) {
			return Optional.empty();
		}
		try {
			return node(target).withConnection((connection) -> GapJournalStore.load(connection, slot));
		}
		catch (RuntimeException ex) {
			logger.warn("The stored gap journal of slot '{}' (target '{}') cannot be read from database '{}': {}", slot,
					target.name(), this.database, FailureDescription.messageOf(ex));
			return Optional.empty();
		}
	}

	/**
	 * Keeps a slot's stored journal as the gap a recreate closed, replacing the slot's
	 * last one; a failure is said in the log (the gap then lives in this instance's
	 * memory only) and the journal is forgotten.
	 * @param target the slot's target
	 * @param slot the slot made anew
	 * @param from where the gap starts
	 * @param to where the new slot starts
	 */
	void keepClosed(Target target, String slot, String from, String to) {
		if (this.database.isBlank()) {
			return;
		}
		try {
			node(target).withConnection((connection) -> {
				GapJournalStore.close(connection, slot, from, to);
				return null;
			});
		}
		catch (RuntimeException ex) {
			logger.warn("The gap of slot '{}' (target '{}') cannot be kept in database '{}' for the next owner: {}",
					slot, target.name(), this.database, FailureDescription.messageOf(ex));
			delete(target, slot);
		}
	}

	/**
	 * Forgets a slot's journal; a failure is said in the log, and the journal found later
	 * is not adopted (its copy is ahead of it).
	 * @param target the slot's target
	 * @param slot the slot
	 */
	void delete(Target target, String slot) {
		if (this.database.isBlank()) {
			return;
		}
		try {
			node(target).withConnection((connection) -> {
				GapJournalStore.delete(connection, slot);
				return null;
			});
		}
		catch (RuntimeException ex) {
			logger.warn("The stored gap journal of slot '{}' (target '{}') cannot be deleted from database '{}': {}",
					slot, target.name(), this.database, FailureDescription.messageOf(ex));
		}
	}

	/**
	 * Forgets the journals kept in the target's server whose copies are gone (of any
	 * target of that server: slot names are unique on it); a failure is said in the log,
	 * and the next sweep tries again.
	 * @param target a target of the server
	 */
	void sweep(Target target) {
		if (this.database.isBlank()) {
			return;
		}
		try {
			List<String> swept = node(target).withConnection(GapJournalStore::sweep);
			if (!swept.isEmpty()) {
				logger.info("Forgot the stored gap journals of slots {} in database '{}' (target '{}'): their copies"
						+ " are gone", swept, this.database, target.name());
			}
		}
		catch (RuntimeException ex) {
			logger.warn("Stored gap journals whose copies are gone cannot be forgotten in database '{}' (target '{}'):"
					+ " {}", this.database, target.name(), FailureDescription.messageOf(ex));
		}
	}

	/**
	 * Closes the target's node, when it has one.
	 * @param target the target's name
	 */
	void forget(String target) {
		Place place = this.places.remove(target);
		if (place != null) {
			place.store().close();
		}
	}

	@Override
	public void close() {
		this.places.keySet().forEach(this::forget);
	}

	// A new primary node (the target's configuration reloaded) gets a new store node.
	private Node node(Target target) {
		Place place = this.places.compute(target.name(), (name, known) -> {
			if (known != null && known.primary() == target.primary()) {
				return known;
			}
			if (known != null) {
				known.store().close();
			}
			return new Place(target.primary(), target.primary().inDatabase(this.database));
		});
		return place.store();
	}

	private record Place(Node primary, Node store) {
	}

}
