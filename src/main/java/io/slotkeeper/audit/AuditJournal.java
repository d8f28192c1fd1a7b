package io.slotkeeper.audit;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.slf4j.event.Level;

import io.slotkeeper.support.Events;

/**
 * Keeps the latest audit entries in memory, newest first, and writes each as one log line
 * on the {@code io.slotkeeper.audit} logger —
 * {@code audit action=… target=… slot=… actor=… outcome=… status=… …} — that is also an
 * event with its fields as fields ({@code event.action}, {@code user.name},
 * {@code slotkeeper.target}…), so that with structured logging a log store can query
 * them; the log, not this journal, is the durable record.
 */
public class AuditJournal {

	private static final Logger logger = LoggerFactory.getLogger("io.slotkeeper.audit");

	private final int capacity;

	private final Deque<AuditEntry> entries = new ArrayDeque<>();

	/**
	 * Creates a journal.
	 * @param capacity how many entries it keeps; older ones are forgotten (the log keeps
	 * them)
	 */
	public AuditJournal(int capacity) {
		this.capacity = capacity;
	}

	/**
	 * Records an entry.
	 * @param entry the entry
	 */
	public void record(AuditEntry entry) {
		Map<String, Object> fields = new LinkedHashMap<>();
		fields.put("event.kind", "event");
		fields.put("event.outcome",
				("done".equals(entry.outcome()) || "dry-run".equals(entry.outcome())) ? "success" : "failure");
		fields.put("user.name", entry.actor());
		fields.put("slotkeeper.actor.groups", entry.actorGroups().isEmpty() ? null : entry.actorGroups());
		fields.put(Events.TARGET, entry.target());
		fields.put("slotkeeper.slot", entry.slot());
		fields.put("slotkeeper.outcome", entry.outcome());
		fields.put("http.response.status_code", entry.status());
		fields.put("slotkeeper.parameters", entry.parameters().isEmpty() ? null : entry.parameters());
		fields.put("slotkeeper.lsns", entry.lsns().isEmpty() ? null : entry.lsns());
		fields.put("slotkeeper.connector", entry.connector());
		fields.put("slotkeeper.detail", entry.detail());
		Events.log(logger, Level.INFO, entry.action(), fields,
				"audit action={} target={} slot={} actor={}{} outcome={}"
						+ " status={} parameters={} lsns={} connector=\"{}\" detail=\"{}\"",
				entry.action(), entry.target(), entry.slot(), entry.actor(),
				entry.actorGroups().isEmpty() ? "" : " groups=" + String.join(",", entry.actorGroups()),
				entry.outcome(), entry.status(), format(entry.parameters()), format(entry.lsns()),
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
