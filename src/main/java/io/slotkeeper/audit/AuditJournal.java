package io.slotkeeper.audit;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.stream.Collectors;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Keeps the latest audit entries in memory, newest first, and writes each as one structured log line on the
 * {@code io.slotkeeper.audit} logger: {@code audit action=… target=… slot=… actor=… outcome=… status=… …}.
 */
public class AuditJournal {

	private static final Logger logger = LoggerFactory.getLogger("io.slotkeeper.audit");

	private final int capacity;

	private final Deque<AuditEntry> entries = new ArrayDeque<>();

	/**
	 * Creates a journal.
	 * @param capacity how many entries it keeps; older ones are forgotten (the log keeps them)
	 */
	public AuditJournal(int capacity) {
		this.capacity = capacity;
	}

	/**
	 * Records an entry.
	 * @param entry the entry
	 */
	public void record(AuditEntry entry) {
		logger.info("audit action={} target={} slot={} actor={}{} outcome={} status={} parameters={} lsns={}"
				+ " connector=\"{}\" detail=\"{}\"", entry.action(), entry.target(), entry.slot(), entry.actor(),
				entry.actorGroups().isEmpty() ? "" : " groups=" + String.join(",", entry.actorGroups()), entry.outcome(), entry.status(), format(entry.parameters()), format(entry.lsns()),
				(entry.connector() != null) ? entry.connector() : "", (entry.detail() != null) ? entry.detail() : "");
		synchronized (this.entries) {
			this.entries.addFirst(entry);
			while (this.entries.size() > this.capacity) {
				this.entries.removeLast();
			}
		}
	}

	/**
	 * The entries kept, newest first.
	 * @return a copy of the entries
	 */
	public List<AuditEntry> entries() {
		synchronized (this.entries) {
			return new ArrayList<>(this.entries);
		}
	}

	private static String format(java.util.Map<String, ?> values) {
		return values.entrySet()
			.stream()
			.map((entry) -> entry.getKey() + ":" + entry.getValue())
			.collect(Collectors.joining(",", "{", "}"));
	}

}
