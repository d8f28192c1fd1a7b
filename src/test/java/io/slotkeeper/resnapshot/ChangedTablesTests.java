package io.slotkeeper.resnapshot;

import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

import io.slotkeeper.config.ResnapshotProperties;
import io.slotkeeper.lineage.TableWrites;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Which tables a re-snapshot of only the changed ones reads: those whose counters moved
 * (up, or down after a reset), those a reading lacks, every table without a reading from
 * before the loss or before PostgreSQL 15; the lost window of a table with an
 * update-timestamp column starting a margin before the reading.
 */
class ChangedTablesTests {

	private static final Instant BEFORE = Instant.parse("2026-12-03T06:00:00Z");

	private static final List<String> TABLES = List.of("public.a", "public.b", "public.c", "public.d");

	private static final ResnapshotProperties SETTINGS = new ResnapshotProperties(
			ResnapshotProperties.Mode.DEBEZIUM_SIGNAL, "public.signal", TABLES, ResnapshotProperties.Type.INCREMENTAL,
			ResnapshotProperties.Tables.CHANGED, Duration.ofSeconds(60), List.of("public.b.updated_at"),
			Duration.ofMinutes(5), ResnapshotProperties.Deletes.LIST, null);

	private static final Map<String, String> INSTANTS = Map.of("public.b", UpdateColumns.INSTANTS);

	private static TableWrites reading(Instant at, int version, Map<String, Long> writes) {
		return TableWrites.ofWrites(at, 100, version, writes);
	}

	@Test
	void tablesWhoseCountersMovedEitherWayOrThatAReadingLacksAreReadTheOthersSkippedWithTheReason() {
		TableWrites before = reading(BEFORE, 170000, Map.of("public.a", 5L, "public.b", 7L, "public.c", 9L));
		TableWrites now = reading(BEFORE.plusSeconds(600), 170000,
				Map.of("public.a", 5L, "public.b", 8L, "public.c", 2L, "public.d", 0L));
		ChangedTables.Choice choice = ChangedTables.choose(new ChangedTables.Pin(before, BEFORE.plusSeconds(300)), now,
				TABLES, SETTINGS, INSTANTS);
		assertThat(choice.read()).containsExactly("public.b", "public.c", "public.d");
		assertThat(choice.answer().skipped()).extracting(SkippedTable::table).containsExactly("public.a");
		assertThat(choice.answer().skipped().get(0).why()).contains("did not move").contains(BEFORE.toString());
		assertThat(choice.answer().conditions())
			.containsExactly(Map.entry("public.b", "\"updated_at\" >= '2026-12-03T05:55:00Z'"));
	}

	@Test
	void withoutAReadingFromBeforeTheLossOrBeforePostgreSql15EveryTableIsReadSayingWhy() {
		TableWrites now = reading(BEFORE, 170000, Map.of("public.a", 5L));
		ChangedTables.Choice unknown = ChangedTables.choose(new ChangedTables.Pin(null, BEFORE), now, TABLES, SETTINGS,
				INSTANTS);
		assertThat(unknown.read()).isEqualTo(TABLES);
		assertThat(unknown.answer().why()).contains("no reading of the table counters from before");
		TableWrites old = reading(BEFORE, 140000, Map.of("public.a", 5L));
		ChangedTables.Choice collector = ChangedTables.choose(new ChangedTables.Pin(old, BEFORE), old, TABLES, SETTINGS,
				INSTANTS);
		assertThat(collector.read()).isEqualTo(TABLES);
		assertThat(collector.answer().why()).contains("before 15");
		assertThat(collector.answer().conditions()).isEmpty();
	}

	@Test
	void aTableWhoseUpdateColumnIsMissingOrHoldsNoZoneIsReadWholeSayingWhy() {
		TableWrites before = reading(BEFORE, 170000, Map.of("public.b", 7L));
		TableWrites now = reading(BEFORE.plusSeconds(600), 170000, Map.of("public.b", 8L));
		ChangedTables.Pin pin = new ChangedTables.Pin(before, BEFORE.plusSeconds(300));
		ChangedTables.Choice local = ChangedTables.choose(pin, now, TABLES, SETTINGS,
				Map.of("public.b", "timestamp without time zone"));
		assertThat(local.read()).contains("public.b");
		assertThat(local.answer().conditions()).as("a window on wall times of an unknown zone misses rows").isEmpty();
		assertThat(local.answer().readWhole()).containsOnlyKeys("public.b");
		assertThat(local.answer().readWhole().get("public.b")).contains("updated_at is timestamp without time zone");
		Map<String, String> missing = new HashMap<>();
		missing.put("public.b", null);
		ChangedTables.Choice absent = ChangedTables.choose(pin, now, TABLES, SETTINGS, missing);
		assertThat(absent.answer().readWhole().get("public.b"))
			.isEqualTo("its update column updated_at does not exist");
		ChangedTables.Choice date = ChangedTables.choose(pin, now, TABLES, SETTINGS, Map.of("public.b", "date"));
		assertThat(date.answer().readWhole().get("public.b")).contains("is date, not timestamp with time zone");
	}

}
