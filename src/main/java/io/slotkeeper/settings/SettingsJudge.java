package io.slotkeeper.settings;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;

import io.slotkeeper.settings.ServerSettings.Setting;

/**
 * Judges a server's settings for the slots on it: each finding says the setting, its
 * value and why it matters here.
 */
final class SettingsJudge {

	// Debezium confirms its position every 10 s (status.update.interval.ms); a walsender
	// must wait for more than that.
	static final Duration CONSUMER_STATUS_INTERVAL = Duration.ofSeconds(10);

	private static final double CROWDED = 0.8;

	private SettingsJudge() {
	}

	/**
	 * What is wrong or risky with a server's settings.
	 * @param read the settings as read
	 * @param walBytesPerSecond the WAL the server writes, measured over the last hour;
	 * empty before two readings
	 * @param outage the consumer outage the target's slots must survive (its
	 * {@code loss-warning})
	 * @return the findings, the most severe first
	 */
	static List<SettingFinding> judge(ServerSettings read, Optional<Double> walBytesPerSecond, Duration outage) {
		List<SettingFinding> findings = new ArrayList<>();
		read.get("wal_level").ifPresent((level) -> walLevel(read, level, findings));
		read.get("max_slot_wal_keep_size").ifPresent((keep) -> keepSize(keep, walBytesPerSecond, outage, findings));
		read.get("idle_replication_slot_timeout").ifPresent((idle) -> idleTimeout(idle, outage, findings));
		read.get("wal_sender_timeout").ifPresent((timeout) -> senderTimeout(timeout, findings));
		read.get("synchronized_standby_slots").ifPresent((names) -> standbySlots(read, names, findings));
		read.get("max_replication_slots")
			.ifPresent((max) -> room("max_replication_slots", max, read.slotsInUse(),
					"replication slots" + ((read.gapCopies() > 0) ? " (" + read.gapCopies()
							+ " of them copies slot-keeper's gap journals read, dropped when each consumer is back)"
							: ""),
					"a new connector cannot create its slot, and a recreate after a drop races any other creation",
					findings));
		read.get("max_wal_senders")
			.ifPresent((max) -> room("max_wal_senders", max, read.walSendersInUse(), "WAL senders",
					"a consumer or standby that reconnects is refused", findings));
		findings.sort(SettingFinding.MOST_SEVERE_FIRST);
		return findings;
	}

	private static void walLevel(ServerSettings read, Setting level, List<SettingFinding> findings) {
		if ("logical".equals(level.setting())) {
			return;
		}
		Optional<Setting> effective = read.get("effective_wal_level");
		if (effective.isPresent()) {
			findings.add(new SettingFinding("effective_wal_level", effective.get().shown(), SettingFinding.INFO,
					"wal_level is " + level.setting() + ": logical decoding is on only while a logical slot exists, so"
							+ " dropping or invalidating the last one switches it off and recreating it waits for a"
							+ " checkpoint; set wal_level = logical to keep it on"));
			return;
		}
		findings.add(new SettingFinding("wal_level", level.shown(), SettingFinding.CRITICAL,
				"logical slots need wal_level = logical: none can be created or read until it is set and the server"
						+ " restarted"));
	}

	private static void keepSize(Setting keep, Optional<Double> rate, Duration outage, List<SettingFinding> findings) {
		Optional<Long> bytes = keep.bytes();
		if (bytes.isEmpty()) {
			findings.add(new SettingFinding("max_slot_wal_keep_size", keep.shown(), SettingFinding.WARNING,
					"unlimited: a consumer that stops makes its slot keep every WAL file until the disk is full and"
							+ " the server stops; set a limit that holds an outage of " + words(outage)
							+ rate.filter((perSecond) -> perSecond > 0)
								.map((perSecond) -> " (" + bytes(perSecond * outage.toSeconds()) + " at the "
										+ bytes(perSecond) + "/s measured over the last hour)")
								.orElse("")));
			return;
		}
		rate.filter((perSecond) -> perSecond > 0).ifPresent((perSecond) -> {
			Duration holds = Duration.ofSeconds((long) (bytes.get() / perSecond));
			if (holds.compareTo(outage) < 0) {
				findings.add(new SettingFinding("max_slot_wal_keep_size", keep.shown(), SettingFinding.WARNING,
						"holds about " + words(holds) + " of WAL at the " + bytes(perSecond) + "/s measured over the"
								+ " last hour: a consumer down longer loses its slot (wal_removed); an outage of "
								+ words(outage) + " (the target's loss-warning) needs "
								+ bytes(perSecond * outage.toSeconds())));
			}
		});
	}

	private static void idleTimeout(Setting idle, Duration outage, List<SettingFinding> findings) {
		idle.duration()
			.filter((timeout) -> !timeout.isZero() && timeout.compareTo(outage) < 0)
			.ifPresent((timeout) -> findings
				.add(new SettingFinding("idle_replication_slot_timeout", idle.shown(), SettingFinding.CRITICAL,
						"the server invalidates a slot no consumer has read for " + words(timeout) + " (reason"
								+ " idle_timeout): a consumer down longer, such as Kafka Connect restarting or being"
								+ " upgraded, loses its slot; the target's loss-warning asks for " + words(outage))));
	}

	private static void senderTimeout(Setting timeout, List<SettingFinding> findings) {
		timeout.duration().ifPresent((wait) -> {
			if (wait.isZero()) {
				findings.add(new SettingFinding("wal_sender_timeout", timeout.shown(), SettingFinding.WARNING,
						"0: a consumer that stops answering is never disconnected, so its slot stays active and"
								+ " keeps WAL while nothing reads it"));
			}
			else if (wait.compareTo(CONSUMER_STATUS_INTERVAL.multipliedBy(2)) < 0) {
				findings.add(new SettingFinding("wal_sender_timeout", timeout.shown(), SettingFinding.WARNING,
						"shorter than twice the " + words(CONSUMER_STATUS_INTERVAL) + " at which Debezium confirms its"
								+ " position: a healthy consumer busy with a large transaction is disconnected"));
			}
		});
	}

	private static void standbySlots(ServerSettings read, Setting names, List<SettingFinding> findings) {
		Arrays.stream(names.setting().split(","))
			.map(String::trim)
			.filter((name) -> !name.isEmpty() && !read.physicalSlots().contains(name))
			.forEach((name) -> findings
				.add(new SettingFinding("synchronized_standby_slots", names.shown(), SettingFinding.CRITICAL,
						"names " + name + ", which is not a valid physical slot on this server: the"
								+ " changes of failover slots wait for it, so their consumers stop receiving")));
	}

	private static void room(String name, Setting max, int used, String what, String consequence,
			List<SettingFinding> findings) {
		max.number()
			.filter((limit) -> limit > 0 && used >= CROWDED * limit)
			.ifPresent((limit) -> findings.add(new SettingFinding(name, max.shown(),
					(used >= limit) ? SettingFinding.CRITICAL : SettingFinding.WARNING, used + " of " + limit + " "
							+ what + " in use: " + ((used >= limit) ? "" : "once all are, ") + consequence)));
	}

	static String words(Duration duration) {
		long seconds = duration.toSeconds();
		if (seconds % 3600 == 0 && seconds >= 3600) {
			return (seconds / 3600) + " h";
		}
		if (seconds >= 3600) {
			return String.format("%.1f h", seconds / 3600.0);
		}
		if (seconds >= 60) {
			return (seconds / 60) + " min";
		}
		return (seconds == 0) ? "under 1 s" : seconds + " s";
	}

	static String bytes(double bytes) {
		String[] units = { "B", "kB", "MB", "GB", "TB" };
		int unit = 0;
		double value = bytes;
		while (value >= 1024 && unit < units.length - 1) {
			value /= 1024;
			unit++;
		}
		return (unit == 0) ? String.format("%.0f B", value) : String.format("%.1f %s", value, units[unit]);
	}

}
