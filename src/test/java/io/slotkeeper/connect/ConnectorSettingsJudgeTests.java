package io.slotkeeper.connect;

import java.util.HashMap;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

import io.slotkeeper.config.ConnectorOffsets;
import io.slotkeeper.config.HeartbeatProperties;
import io.slotkeeper.config.ResnapshotProperties;
import io.slotkeeper.connect.ConnectorSettingsJudge.Slot;
import io.slotkeeper.settings.SettingFinding;

import static io.slotkeeper.testbed.TestTargets.bind;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * The connector settings audit's rules, each against a configuration that trips it and
 * one that does not.
 */
class ConnectorSettingsJudgeTests {

	private static final HeartbeatProperties EVERY_SECOND = bind(HeartbeatProperties.class, "interval", "1s");

	private static final Slot ALIGNED_WITH_SIGNAL = new Slot("cdc", "pgoutput", EVERY_SECOND, ConnectorOffsets.ALIGN,
			ResnapshotProperties.of(ResnapshotProperties.Mode.DEBEZIUM_SIGNAL), 170000);

	private static Map<String, String> sound(String... more) {
		Map<String, String> config = new HashMap<>(Map.of("slot.name", "cdc", "plugin.name", "pgoutput", "topic.prefix",
				"shop", "message.prefix.exclude.list", "slotkeeper_heartbeat", "heartbeat.interval.ms", "10000",
				"signal.data.collection", "public.debezium_signal", "database.password", "s3cret"));
		for (int i = 0; i < more.length; i += 2) {
			if (more[i + 1] == null) {
				config.remove(more[i]);
			}
			else {
				config.put(more[i], more[i + 1]);
			}
		}
		return config;
	}

	private static List<String> settings(List<SettingFinding> findings) {
		return findings.stream().map((finding) -> finding.setting() + " " + finding.severity()).toList();
	}

	@Test
	void aConfigurationThatMatchesWhatSlotKeeperDoesHasNoFinding() {
		assertThat(ConnectorSettingsJudge.judge(sound(), ALIGNED_WITH_SIGNAL)).isEmpty();
	}

	@Test
	void beatsThatReachTheConnectorAsMessagesAreAWarningSayingTheirTopicAndDailyCount() {
		List<SettingFinding> findings = ConnectorSettingsJudge.judge(sound("message.prefix.exclude.list", null),
				ALIGNED_WITH_SIGNAL);
		assertThat(settings(findings)).containsExactly("message.prefix.exclude.list warning");
		assertThat(findings.get(0).message()).contains("'shop.message'")
			.contains("86,400 a day")
			.contains("message.prefix.exclude.list = slotkeeper_heartbeat");
		assertThat(findings.get(0).value()).isEqualTo("(unset)");
		assertThat(ConnectorSettingsJudge.judge(sound("message.prefix.exclude.list", "other,slotkeeper_.*"),
				ALIGNED_WITH_SIGNAL))
			.isEmpty();
		assertThat(settings(
				ConnectorSettingsJudge.judge(sound("message.prefix.exclude.list", "other"), ALIGNED_WITH_SIGNAL)))
			.containsExactly("message.prefix.exclude.list warning");
	}

	@Test
	void anIncludeListWithoutSlotKeepersPrefixExcludesItToo() {
		assertThat(ConnectorSettingsJudge.judge(
				sound("message.prefix.exclude.list", null, "message.prefix.include.list", "app_.*"),
				ALIGNED_WITH_SIGNAL))
			.isEmpty();
		assertThat(settings(ConnectorSettingsJudge.judge(sound("message.prefix.exclude.list", null,
				"message.prefix.include.list", "app_.*,SLOTKEEPER_HEARTBEAT"), ALIGNED_WITH_SIGNAL)))
			.containsExactly("message.prefix.exclude.list warning");
	}

	@Test
	void excludedBeatsWithoutDebeziumsOwnHeartbeatAreCritical() {
		List<SettingFinding> findings = ConnectorSettingsJudge.judge(sound("heartbeat.interval.ms", null),
				ALIGNED_WITH_SIGNAL);
		assertThat(settings(findings)).containsExactly("heartbeat.interval.ms critical");
		assertThat(findings.get(0).value()).isEqualTo("0 (default)");
		assertThat(settings(ConnectorSettingsJudge.judge(sound("heartbeat.interval.ms", "0"), ALIGNED_WITH_SIGNAL)))
			.containsExactly("heartbeat.interval.ms critical");
	}

	@Test
	void noMessageFindingWhereSlotKeeperSendsNoMessages() {
		Slot tableBeats = new Slot("cdc", "pgoutput", bind(HeartbeatProperties.class, "mode", "table"),
				ConnectorOffsets.ALIGN, ResnapshotProperties.of(ResnapshotProperties.Mode.DEBEZIUM_SIGNAL), 170000);
		assertThat(ConnectorSettingsJudge.judge(sound("message.prefix.exclude.list", null), tableBeats)).isEmpty();
		Slot off = new Slot("cdc", "pgoutput", bind(HeartbeatProperties.class, "enabled", "false"),
				ConnectorOffsets.ALIGN, ResnapshotProperties.of(ResnapshotProperties.Mode.DEBEZIUM_SIGNAL), 170000);
		assertThat(ConnectorSettingsJudge.judge(sound("message.prefix.exclude.list", null), off)).isEmpty();
	}

	@Test
	void trustOffsetWithOffsetsLeftAloneIsCriticalAndNoValidationWithThemAWarning() {
		Slot leave = new Slot("cdc", "pgoutput", EVERY_SECOND, ConnectorOffsets.LEAVE,
				ResnapshotProperties.of(ResnapshotProperties.Mode.NONE), 150000);
		assertThat(settings(ConnectorSettingsJudge.judge(sound("offset.mismatch.strategy", "trust_offset"), leave)))
			.containsExactly("offset.mismatch.strategy critical");
		List<SettingFinding> silent = ConnectorSettingsJudge.judge(sound(), leave);
		assertThat(settings(silent)).containsExactly("offset.mismatch.strategy warning");
		assertThat(silent.get(0).value()).isEqualTo("no_validation (default)");
		assertThat(silent.get(0).message()).contains("PostgreSQL 15").contains("nothing re-reads");
		assertThat(ConnectorSettingsJudge.judge(sound("offset.mismatch.strategy", "trust_greater_lsn"), leave))
			.isEmpty();
		assertThat(ConnectorSettingsJudge.judge(sound("offset.mismatch.strategy", "trust_offset"), ALIGNED_WITH_SIGNAL))
			.isEmpty();
	}

	@Test
	void aSnapshotModeThatReadsNoRowAfterAResetIsAWarningUnlessASignalClosesTheGap() {
		Slot reset = new Slot("cdc", "pgoutput", EVERY_SECOND, ConnectorOffsets.RESET,
				ResnapshotProperties.of(ResnapshotProperties.Mode.NONE), 170000);
		assertThat(settings(ConnectorSettingsJudge.judge(sound("snapshot.mode", "no_data"), reset)))
			.containsExactly("snapshot.mode warning");
		assertThat(settings(ConnectorSettingsJudge.judge(sound("snapshot.mode", "never"), reset)))
			.containsExactly("snapshot.mode warning");
		assertThat(ConnectorSettingsJudge.judge(sound("snapshot.mode", "when_needed"), reset)).isEmpty();
		assertThat(ConnectorSettingsJudge.judge(sound(), reset)).isEmpty();
		Slot resetWithSignal = new Slot("cdc", "pgoutput", EVERY_SECOND, ConnectorOffsets.RESET,
				ResnapshotProperties.of(ResnapshotProperties.Mode.DEBEZIUM_SIGNAL), 170000);
		assertThat(ConnectorSettingsJudge.judge(sound("snapshot.mode", "no_data"), resetWithSignal)).isEmpty();
	}

	@Test
	void slotDropOnStopAnotherSlotOrAnotherPluginAreCritical() {
		assertThat(settings(ConnectorSettingsJudge.judge(sound("slot.drop.on.stop", "true"), ALIGNED_WITH_SIGNAL)))
			.containsExactly("slot.drop.on.stop critical");
		assertThat(settings(ConnectorSettingsJudge.judge(sound("slot.name", "other"), ALIGNED_WITH_SIGNAL)))
			.containsExactly("slot.name critical");
		assertThat(settings(ConnectorSettingsJudge.judge(sound("slot.name", null), ALIGNED_WITH_SIGNAL)))
			.containsExactly("slot.name critical");
		List<SettingFinding> plugin = ConnectorSettingsJudge.judge(sound("plugin.name", null), ALIGNED_WITH_SIGNAL);
		assertThat(settings(plugin)).containsExactly("plugin.name critical");
		assertThat(plugin.get(0).value()).isEqualTo("decoderbufs (default)");
		assertThat(ConnectorSettingsJudge.judge(sound("slot.drop.on.stop", "false"), ALIGNED_WITH_SIGNAL)).isEmpty();
	}

	@Test
	void theGapsDeletesSignalledNeedDeletesNotSkippedAndTombstonesForCompactedTopics() {
		Slot deletes = new Slot("cdc", "pgoutput", EVERY_SECOND, ConnectorOffsets.ALIGN,
				bind(ResnapshotProperties.class, "mode", "debezium-signal", "deletes", "signal"), 170000);

		assertThat(ConnectorSettingsJudge.judge(sound(), deletes)).isEmpty();
		assertThat(settings(ConnectorSettingsJudge.judge(sound("skipped.operations", "t,d"), deletes)))
			.containsExactly("skipped.operations critical");
		assertThat(settings(ConnectorSettingsJudge.judge(sound("tombstones.on.delete", "false"), deletes)))
			.containsExactly("tombstones.on.delete warning");
		assertThat(ConnectorSettingsJudge.judge(sound("skipped.operations", "t,d", "tombstones.on.delete", "false"),
				ALIGNED_WITH_SIGNAL))
			.as("deletes only listed")
			.isEmpty();
	}

	@Test
	void anOutboxConnectorNeedsItsOutboxTableNamedItsEventsSignalledAndItsCreatesNotSkipped() {
		String[] router = { "transforms", "unwrap,outbox", "transforms.unwrap.type",
				"io.debezium.transforms.ExtractNewRecordState", "transforms.outbox.type",
				"io.debezium.transforms.outbox.EventRouter" };
		List<SettingFinding> unnamed = ConnectorSettingsJudge.judge(sound(router), ALIGNED_WITH_SIGNAL);
		assertThat(settings(unnamed)).containsExactly("transforms.outbox.type warning");
		assertThat(unnamed.get(0).message()).contains("resnapshot.outbox-tables names no table");

		Slot listed = new Slot("cdc", "pgoutput", EVERY_SECOND, ConnectorOffsets.ALIGN,
				bind(ResnapshotProperties.class, "mode", "debezium-signal", "outbox-tables[0]", "public.outbox"),
				170000);
		assertThat(ConnectorSettingsJudge.judge(sound(router), listed).get(0).message())
			.contains("resnapshot.deletes is list");

		Slot signalled = new Slot("cdc", "pgoutput", EVERY_SECOND, ConnectorOffsets.ALIGN,
				bind(ResnapshotProperties.class, "mode", "debezium-signal", "deletes", "signal", "outbox-tables[0]",
						"public.outbox"),
				170000);
		assertThat(ConnectorSettingsJudge.judge(sound(router), signalled)).isEmpty();
		String[] skipping = java.util.Arrays.copyOf(router, router.length + 2);
		skipping[router.length] = "skipped.operations";
		skipping[router.length + 1] = "c,t";
		assertThat(settings(ConnectorSettingsJudge.judge(sound(skipping), signalled)))
			.containsExactly("skipped.operations critical");
		assertThat(ConnectorSettingsJudge.judge(sound(), listed)).as("no EventRouter, nothing to say").isEmpty();
	}

	@Test
	void aSignalNobodyReadsIsCritical() {
		assertThat(settings(ConnectorSettingsJudge.judge(sound("signal.data.collection", null), ALIGNED_WITH_SIGNAL)))
			.containsExactly("signal.data.collection critical");
		assertThat(
				settings(ConnectorSettingsJudge.judge(sound("signal.enabled.channels", "kafka"), ALIGNED_WITH_SIGNAL)))
			.containsExactly("signal.enabled.channels critical");
		assertThat(ConnectorSettingsJudge.judge(sound("signal.enabled.channels", "kafka, source"), ALIGNED_WITH_SIGNAL))
			.isEmpty();
		assertThat(settings(ConnectorSettingsJudge.judge(sound("read.only", "true"), ALIGNED_WITH_SIGNAL)))
			.containsExactly("read.only warning");
		assertThat(ConnectorSettingsJudge.judge(sound("read.only", "false"), ALIGNED_WITH_SIGNAL)).isEmpty();
		Slot otherTable = new Slot("cdc", "pgoutput", EVERY_SECOND, ConnectorOffsets.ALIGN,
				bind(ResnapshotProperties.class, "mode", "debezium-signal", "signal-table", "ops.signals"), 170000);
		assertThat(settings(ConnectorSettingsJudge.judge(sound(), otherTable)))
			.containsExactly("signal.data.collection critical");
		Slot noSignal = new Slot("cdc", "pgoutput", EVERY_SECOND, ConnectorOffsets.ALIGN,
				ResnapshotProperties.of(ResnapshotProperties.Mode.NONE), 170000);
		assertThat(ConnectorSettingsJudge.judge(sound("signal.data.collection", null), noSignal)).isEmpty();
	}

	@Test
	void anUnprotectedConnectorIsJudgedOnlyOnWhatItDoesAlone() {
		assertThat(ConnectorSettingsJudge.judge(Map.of("slot.name", "x"), Slot.unprotected("x"))).isEmpty();
		assertThat(settings(ConnectorSettingsJudge.judge(Map.of("slot.name", "x", "slot.drop.on.stop", "TRUE"),
				Slot.unprotected("x"))))
			.containsExactly("slot.drop.on.stop critical");
	}

	@Test
	void findingsNeverShowThePassword() {
		assertThat(ConnectorSettingsJudge.judge(sound("slot.name", null, "plugin.name", null, "slot.drop.on.stop",
				"true", "heartbeat.interval.ms", null), ALIGNED_WITH_SIGNAL))
			.isNotEmpty()
			.allSatisfy((finding) -> assertThat(finding.toString()).doesNotContain("s3cret"));
	}

}
