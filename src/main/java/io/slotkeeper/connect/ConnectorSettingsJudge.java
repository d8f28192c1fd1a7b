package io.slotkeeper.connect;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

import io.slotkeeper.config.ConnectorOffsets;
import io.slotkeeper.config.HeartbeatMode;
import io.slotkeeper.config.HeartbeatProperties;
import io.slotkeeper.config.ResnapshotProperties;
import io.slotkeeper.settings.SettingFinding;

/**
 * Judges a Debezium PostgreSQL connector's configuration against what slot-keeper does to
 * its slot: the heartbeat, the recreate's handover and the re-snapshot that closes the
 * gap. Each finding says the setting, its value, why it matters for this slot and what to
 * set, in the form of the server settings audit.
 */
public final class ConnectorSettingsJudge {

	private static final String EVENT_ROUTER = "io.debezium.transforms.outbox.EventRouter";

	// Debezium's defaults, where a setting is unset.
	private static final String DEFAULT_PLUGIN = "decoderbufs";

	private static final String DEFAULT_STRATEGY = "no_validation";

	private static final Set<String> NO_SNAPSHOT = Set.of("never", "no_data", "schema_only");

	private ConnectorSettingsJudge() {
	}

	/**
	 * What slot-keeper does to the slot a connector consumes.
	 *
	 * @param name the slot's name
	 * @param plugin the slot's output plugin as the server shows it, {@code null} when
	 * not read
	 * @param heartbeat the target's heartbeat settings, {@code null} when no target
	 * heartbeats the slot
	 * @param offsets what a recreate does with the connector's offsets, {@code null} when
	 * nothing recreates it
	 * @param resnapshot how a recreate's gap is closed, {@code null} when nothing
	 * recreates it
	 * @param serverVersion the server's {@code server_version_num}, 0 when not known
	 */
	public record Slot(String name, String plugin, HeartbeatProperties heartbeat, ConnectorOffsets offsets,
			ResnapshotProperties resnapshot, int serverVersion) {

		/**
		 * A slot no target looks after: only what a connector's configuration does on its
		 * own is judged.
		 * @param name the slot's name
		 * @return the slot
		 */
		public static Slot unprotected(String name) {
			return new Slot(name, null, null, null, null, 0);
		}

	}

	/**
	 * The findings of a connector's configuration.
	 * @param config the configuration, each value as text
	 * @param slot the slot it consumes and what slot-keeper does to it
	 * @return the findings, the most severe first
	 */
	public static List<SettingFinding> judge(Map<String, String> config, Slot slot) {
		DebeziumConfig debezium = new DebeziumConfig(config);
		List<SettingFinding> findings = new ArrayList<>();
		identity(debezium, slot, findings);
		if (debezium.on("slot.drop.on.stop")) {
			findings.add(new SettingFinding("slot.drop.on.stop", "true", SettingFinding.CRITICAL, "Debezium drops the"
					+ " slot whenever the connector stops gracefully (measured on a real worker: PUT …/stop and the slot"
					+ " is gone): slot-keeper's handover stops it, and so does a rolling restart; the slot's position"
					+ " goes with it and the rows written until the task makes a new slot are never read; set"
					+ " slot.drop.on.stop = false"));
		}
		if (slot.heartbeat() != null) {
			heartbeat(debezium, slot.heartbeat(), findings);
		}
		if (slot.offsets() != null) {
			recreate(debezium, slot, findings);
		}
		if (slot.resnapshot() != null && slot.resnapshot().mode() == ResnapshotProperties.Mode.DEBEZIUM_SIGNAL) {
			signal(debezium, slot.resnapshot(), findings);
		}
		if (slot.resnapshot() != null) {
			outbox(debezium, slot.resnapshot(), findings);
		}
		findings.sort(SettingFinding.MOST_SEVERE_FIRST);
		return List.copyOf(findings);
	}

	private static void identity(DebeziumConfig debezium, Slot slot, List<SettingFinding> findings) {
		String slotName = debezium.get("slot.name", "debezium");
		if (!slotName.equals(slot.name())) {
			findings.add(new SettingFinding("slot.name", slotName, SettingFinding.CRITICAL,
					"the connector reads slot '" + slotName + "', not '" + slot.name()
							+ "': slot-keeper heartbeats and heals '" + slot.name()
							+ "' and would hand over a connector that does not read it; set slot.name = " + slot.name()
							+ " or name the connector under the slot it reads"));
		}
		String plugin = debezium.get("plugin.name", DEFAULT_PLUGIN);
		if (slot.plugin() != null && !plugin.equals(slot.plugin())) {
			findings.add(new SettingFinding("plugin.name", plugin + (debezium.has("plugin.name") ? "" : " (default)"),
					SettingFinding.CRITICAL,
					"the connector decodes with " + plugin + ", its slot was made with " + slot.plugin()
							+ " (and a recreate makes it with " + slot.plugin() + " again); set" + " plugin.name = "
							+ slot.plugin()));
		}
	}

	private static void heartbeat(DebeziumConfig debezium, HeartbeatProperties heartbeat,
			List<SettingFinding> findings) {
		if (!heartbeat.enabled() || heartbeat.mode() != HeartbeatMode.MESSAGE) {
			return;
		}
		long seconds = heartbeat.cadence().seconds();
		String exclude = debezium.get("message.prefix.exclude.list", null);
		if (!debezium.excludesMessagePrefix(heartbeat.prefix())) {
			findings.add(new SettingFinding("message.prefix.exclude.list", (exclude != null) ? exclude : "(unset)",
					SettingFinding.WARNING,
					"slot-keeper's beats (prefix '" + heartbeat.prefix() + "', every "
							+ heartbeat.interval().toString().substring(2).toLowerCase(Locale.ROOT) + ") reach the"
							+ " connector as logical-decoding messages: each is a record of topic '"
							+ debezium.get("topic.prefix", "<topic.prefix>") + ".message', "
							+ String.format(Locale.ROOT, "%,d", 86_400 / seconds)
							+ " a day, read by whoever reads that topic;"
							+ " to keep them out set message.prefix.exclude.list = " + heartbeat.prefix()
							+ " together with heartbeat.interval.ms (e.g. 10000): excluded beats alone do not move"
							+ " the connector's offset"));
			return;
		}
		if (debezium.number("heartbeat.interval.ms") <= 0) {
			findings.add(new SettingFinding("heartbeat.interval.ms",
					debezium.get("heartbeat.interval.ms", "0 (default)"), SettingFinding.CRITICAL,
					"slot-keeper's beats are excluded (message.prefix.exclude.list) and"
							+ " Debezium writes no heartbeat of its own: on an idle database no record is written, so"
							+ " the offset and the slot's confirmed position do not move and the slot keeps the"
							+ " server's WAL as if there were no beats (measured on a real worker: the slot kept all the"
							+ " WAL another database wrote beside it); set heartbeat.interval.ms (e.g. 10000)"));
		}
	}

	private static void recreate(DebeziumConfig debezium, Slot slot, List<SettingFinding> findings) {
		String strategy = debezium.get("offset.mismatch.strategy", DEFAULT_STRATEGY);
		boolean noResnapshot = slot.resnapshot() == null || slot.resnapshot().mode() == ResnapshotProperties.Mode.NONE;
		if ("trust_offset".equals(strategy) && slot.offsets() == ConnectorOffsets.LEAVE) {
			findings.add(new SettingFinding("offset.mismatch.strategy", strategy, SettingFinding.CRITICAL, "with"
					+ " trust_offset Debezium refuses to start when its slot is ahead of its stored offset, as a"
					+ " recreated slot is, and the slot's connector.offsets is leave: after a recreate the task fails"
					+ " until its offsets are set by hand; set connector.offsets = align (or the strategy to"
					+ " trust_greater_lsn)"));
		}
		else if (DEFAULT_STRATEGY.equals(strategy) && slot.offsets() == ConnectorOffsets.LEAVE) {
			findings.add(new SettingFinding("offset.mismatch.strategy",
					strategy + (debezium.has("offset.mismatch.strategy") ? "" : " (default)"), SettingFinding.WARNING,
					"with no_validation"
							+ " and connector.offsets = leave, a task restarted on a recreated slot either fails (\"…no"
							+ " longer available on the server\") or streams on from the new slot"
							+ (slot.serverVersion() >= 150000 ? " (PostgreSQL 15 and later start it at the slot's own"
									+ " position without a word)" : "")
							+ (noResnapshot ? "; nothing re-reads the rows written while the slot was lost" : "")
							+ "; set connector.offsets = align and resnapshot.mode = debezium-signal"));
		}
		if (slot.offsets() == ConnectorOffsets.RESET && noResnapshot) {
			String mode = debezium.get("snapshot.mode", "initial");
			if (NO_SNAPSHOT.contains(mode)) {
				findings.add(new SettingFinding("snapshot.mode", mode, SettingFinding.WARNING, "after a recreate the"
						+ " slot's connector.offsets = reset deletes the offsets, and with snapshot.mode " + mode
						+ " Debezium then reads no existing row: the rows written while the slot was lost are never"
						+ " read; set snapshot.mode = when_needed or initial, or resnapshot.mode = debezium-signal"));
			}
		}
	}

	private static void signal(DebeziumConfig debezium, ResnapshotProperties resnapshot,
			List<SettingFinding> findings) {
		String collection = debezium.get("signal.data.collection", null);
		if (collection == null) {
			findings.add(new SettingFinding("signal.data.collection", "(unset)", SettingFinding.CRITICAL, "the"
					+ " slot's resnapshot.mode is debezium-signal, and the connector reads no signal table: the"
					+ " execute-snapshot row slot-keeper inserts after a recreate signals nobody and the gap stays"
					+ " open; set signal.data.collection = "
					+ ((resnapshot.signalTable() != null) ? resnapshot.signalTable() : "<schema.table>")));
		}
		else if (resnapshot.signalTable() != null && !resnapshot.signalTable().equals(collection)) {
			findings.add(new SettingFinding("signal.data.collection", collection, SettingFinding.CRITICAL,
					"slot-keeper" + " signals in " + resnapshot.signalTable()
							+ " (resnapshot.signal-table), the connector reads" + " signals from " + collection
							+ ": the row signals nobody; set one to the other"));
		}
		if ("true".equalsIgnoreCase(debezium.get("read.only", "false").strip())) {
			findings.add(new SettingFinding("read.only", "true", SettingFinding.WARNING, "Debezium's read.only"
					+ " connection switches the connector to other ways of delivering signals than writing to its"
					+ " signal table (its own description), so the execute-snapshot row slot-keeper inserts after a"
					+ " recreate may signal nobody; set read.only = false, or resnapshot.mode = none and send the"
					+ " re-snapshot through the connector's Kafka signal channel after a recreate"));
		}
		if (debezium.has("signal.enabled.channels") && !debezium.list("signal.enabled.channels").contains("source")) {
			findings.add(new SettingFinding("signal.enabled.channels", debezium.get("signal.enabled.channels", ""),
					SettingFinding.CRITICAL,
					"the connector reads signals only from " + debezium.get("signal.enabled.channels", "")
							+ ", not from its signal table: the execute-snapshot row"
							+ " slot-keeper inserts after a recreate signals nobody; add source to"
							+ " signal.enabled.channels"));
		}
		if (resnapshot.deletes() == ResnapshotProperties.Deletes.SIGNAL) {
			deletes(debezium, findings);
		}
	}

	// An outbox connector loses every event written while its slot is lost, unless the
	// journal keeps its outbox table's rows and the extension emits them.
	private static void outbox(DebeziumConfig debezium, ResnapshotProperties resnapshot,
			List<SettingFinding> findings) {
		List<String> routers = debezium.list("transforms")
			.stream()
			.filter((name) -> EVENT_ROUTER.equals(debezium.get("transforms." + name + ".type", "").strip()))
			.toList();
		if (routers.isEmpty()) {
			return;
		}
		if (resnapshot.outboxes().isEmpty()) {
			findings.add(new SettingFinding("transforms." + routers.get(0) + ".type", EVENT_ROUTER,
					SettingFinding.WARNING,
					"the connector routes outbox events, and the slot's resnapshot.outbox-tables names no table: the"
							+ " events written while its slot is lost are gone for good after a recreate (a re-read finds"
							+ " the outbox rows deleted); name the outbox table in resnapshot.outbox-tables, with"
							+ " resnapshot.mode debezium-signal and resnapshot.deletes signal"));
		}
		else if (resnapshot.deletes() != ResnapshotProperties.Deletes.SIGNAL) {
			findings
				.add(new SettingFinding("transforms." + routers.get(0) + ".type", EVENT_ROUTER, SettingFinding.WARNING,
						"the gap journal keeps the outbox events of " + String.join(", ", resnapshot.outboxes())
								+ ", and the slot's resnapshot.deletes is list: they are only listed at …/gap, never"
								+ " delivered; set resnapshot.deletes signal (with slot-keeper's Debezium extension"
								+ " installed)"));
		}
		else if (debezium.list("skipped.operations").contains("c")) {
			findings.add(new SettingFinding("skipped.operations", debezium.get("skipped.operations", ""),
					SettingFinding.CRITICAL,
					"the connector skips creates: the outbox events slot-keeper's Debezium extension emits for the"
							+ " gap are dropped like the connector's own (and so is every event it streams); remove c"
							+ " from skipped.operations"));
		}
	}

	// What slot-keeper's Debezium extension needs to deliver a gap's deletes as the
	// connector's own.
	private static void deletes(DebeziumConfig debezium, List<SettingFinding> findings) {
		if (debezium.list("skipped.operations").contains("d")) {
			findings.add(new SettingFinding("skipped.operations", debezium.get("skipped.operations", ""),
					SettingFinding.CRITICAL,
					"the slot's resnapshot.deletes is signal, and the connector skips deletes: the deletes"
							+ " slot-keeper's Debezium extension emits for the rows deleted while the slot was lost are"
							+ " dropped like the connector's own, and the consumer keeps those rows; remove d from"
							+ " skipped.operations"));
		}
		if ("false".equalsIgnoreCase(debezium.get("tombstones.on.delete", "true").strip())) {
			findings.add(new SettingFinding("tombstones.on.delete", "false", SettingFinding.WARNING,
					"the gap's deletes reach the consumer as delete events without tombstones: a compacted topic"
							+ " keeps each deleted row's last value until a tombstone comes; set"
							+ " tombstones.on.delete = true where the topics are compacted"));
		}
	}

}
