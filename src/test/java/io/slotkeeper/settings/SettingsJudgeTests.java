package io.slotkeeper.settings;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import org.junit.jupiter.api.Test;

import io.slotkeeper.settings.ServerSettings.Setting;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The judgements no server here can be configured into (PostgreSQL 19's
 * {@code effective_wal_level}, a server without logical decoding) and the arithmetic of
 * the WAL rate, on settings as {@code pg_settings} shows them.
 */
class SettingsJudgeTests {

	private static final Duration HOUR = Duration.ofHours(1);

	@Test
	void replicaWalLevelIsCriticalUnlessLogicalDecodingTurnsOnByItself() {
		assertThat(SettingsJudge.judge(settings(Map.of("wal_level", new Setting("replica", null))), Optional.empty(),
				HOUR))
			.singleElement()
			.satisfies((finding) -> {
				assertThat(finding.severity()).isEqualTo("critical");
				assertThat(finding.message()).startsWith("logical slots need wal_level = logical");
			});
		assertThat(SettingsJudge.judge(settings(
				Map.of("wal_level", new Setting("replica", null), "effective_wal_level", new Setting("logical", null))),
				Optional.empty(), HOUR))
			.singleElement()
			.satisfies((finding) -> {
				assertThat(finding.setting()).isEqualTo("effective_wal_level");
				assertThat(finding.severity()).isEqualTo("info");
				assertThat(finding.message()).contains("dropping or invalidating the last one switches it off");
			});
	}

	@Test
	void aKeepSizeIsJudgedAgainstTheOutageAtTheMeasuredRate() {
		ServerSettings keep = settings(Map.of("max_slot_wal_keep_size", new Setting("1024", "MB")));
		assertThat(SettingsJudge.judge(keep, Optional.empty(), HOUR)).as("no rate yet: nothing to say").isEmpty();
		double oneMegabytePerSecond = 1024 * 1024;
		assertThat(SettingsJudge.judge(keep, Optional.of(oneMegabytePerSecond), HOUR)).singleElement()
			.satisfies(
					(finding) -> assertThat(finding.message()).startsWith("holds about 17 min of WAL at the 1.0 MB/s")
						.endsWith("needs 3.5 GB"));
		assertThat(SettingsJudge.judge(keep, Optional.of(oneMegabytePerSecond / 10), HOUR)).as("holds 2.8 h").isEmpty();
	}

	@Test
	void aSenderTimeoutOfZeroNeverDisconnectsADeadConsumer() {
		assertThat(SettingsJudge.judge(settings(Map.of("wal_sender_timeout", new Setting("0", "ms"))), Optional.empty(),
				HOUR))
			.singleElement()
			.satisfies((finding) -> assertThat(finding.message()).startsWith("0: a consumer"));
		assertThat(SettingsJudge.judge(settings(Map.of("wal_sender_timeout", new Setting("60000", "ms"))),
				Optional.empty(), HOUR))
			.isEmpty();
	}

	@Test
	void theWalRateStartsAfreshWhenThePositionGoesBack() {
		WalRate rate = new WalRate();
		Instant start = Instant.parse("2026-12-03T00:00:00Z");
		rate.record(start, 1_000_000);
		assertThat(rate.perSecond()).isEmpty();
		rate.record(start.plusSeconds(10), 2_000_000);
		assertThat(rate.perSecond()).hasValue(100_000.0);
		rate.record(start.plusSeconds(20), 500);
		assertThat(rate.perSecond()).as("another server's history is not this one's").isEmpty();
		rate.record(start.plusSeconds(3600 + 30), 500 + 3610 * 10);
		rate.record(start.plusSeconds(3600 + 40), 500 + 3620 * 10);
		assertThat(rate.perSecond()).as("an hour's window").hasValue(10.0);
	}

	@Test
	void aSecondlyPollKeepsOneSampleAMinute() {
		WalRate rate = new WalRate();
		Instant start = Instant.parse("2026-12-03T00:00:00Z");
		for (int second = 0; second <= 2 * 3600; second++) {
			rate.record(start.plusSeconds(second), 1000L * second);
		}
		assertThat(rate.samples()).isLessThanOrEqualTo(62);
		assertThat(rate.perSecond()).hasValue(1000.0);
	}

	@Test
	void aReadingSharedWithALaterPollIsTimedWhenTheServerWasRead() {
		SettingsAudit audit = new SettingsAudit();
		Instant start = Instant.parse("2026-12-03T00:00:00Z");
		audit.update("orders", read(start, 0), HOUR, start);
		audit.update("orders", read(start.plusSeconds(10), 1000), HOUR, start.plusSeconds(10));
		// The same reading, handed to this target's next poll by another target's of the
		// same server.
		audit.update("orders", read(start.plusSeconds(10), 1000), HOUR, start.plusSeconds(19));
		assertThat(audit.of("orders"))
			.hasValueSatisfying((view) -> assertThat(view.walBytesPerSecond()).isEqualTo(100.0));
	}

	private static ServerSettings read(Instant at, long position) {
		return new ServerSettings(Map.of(), at, position, 1, 0, List.of(), 0);
	}

	private static ServerSettings settings(Map<String, Setting> values) {
		return new ServerSettings(values, Instant.EPOCH, 0, 1, 0, List.of(), 0);
	}

}
