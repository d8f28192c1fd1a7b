package io.slotkeeper.lineage;

import java.time.Instant;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;
import tools.jackson.databind.json.JsonMapper;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * How the deletes between two readings are told: counted where the table kept its file
 * and its counters only grew, unknown (never 0) where it was truncated or rewritten, its
 * counters went back, or a reading lacks it.
 */
class GapDeletesBetweenTests {

	private static final Instant AT = Instant.parse("2026-12-03T10:00:00Z");

	private static TableWrites reading(Map<String, TableWrites.Counts> counts) {
		return new TableWrites(AT, 100, 170000, counts);
	}

	@Test
	void deletesAreCountedPerTableAndOnlyThoseWithAny() {
		GapDeletes counted = GapDeletes.between(
				reading(Map.of("public.a", new TableWrites.Counts(0, 5, 1), "public.b",
						new TableWrites.Counts(0, 2, 2))),
				reading(Map.of("public.a", new TableWrites.Counts(0, 8, 1), "public.b",
						new TableWrites.Counts(0, 2, 2))),
				null);
		assertThat(counted.tables()).containsExactly(Map.entry("public.a", 3L));
		assertThat(counted.unknown()).isEmpty();
		assertThat(counted.total()).isEqualTo(3);
		assertThat(counted.describe()).isEqualTo("public.a 3 (estimated from the table counters)");
		assertThat(counted.exact()).isFalse();
	}

	@Test
	void aJournalsDeletesAreSaidToBeExactAndARecordWithoutASourceIsAnEstimate() {
		GapDeletes journaled = GapDeletes.exact(Map.of("public.a", 2L),
				Map.of("public.t", "truncated in the gap at 0/1"), "read key by key from the gap journal, 0/1 to 0/2",
				Map.of("public.a", new GapDeletes.TableChanges(4, 1, 2, 0), "public.t",
						new GapDeletes.TableChanges(0, 0, 0, 1)));
		assertThat(journaled.exact()).isTrue();
		// As the lineage keeps it, and as a record from before the changes were kept
		// reads.
		JsonMapper json = JsonMapper.builder().build();
		assertThat(json.readValue(json.writeValueAsString(journaled), GapDeletes.class)).isEqualTo(journaled);
		assertThat(json.readValue("{\"tables\":{\"public.a\":2},\"unknown\":{},\"source\":\"exact\"}", GapDeletes.class)
			.changes()).isEmpty();
		assertThat(journaled.describe())
			.isEqualTo("public.a 2; unknown: public.t (truncated in the gap at 0/1) (exact, from the gap journal)");
		assertThat(new GapDeletes(Map.of(), Map.of(), null, null, null, null).source()).isEqualTo(GapDeletes.ESTIMATE);
	}

	@Test
	void aTruncatedTableACounterResetAndAMissingTableAreUnknown() {
		GapDeletes counted = GapDeletes.between(
				reading(Map.of("public.t", new TableWrites.Counts(0, 0, 1), "public.r", new TableWrites.Counts(0, 9, 2),
						"public.gone", new TableWrites.Counts(0, 0, 3))),
				reading(Map.of("public.t", new TableWrites.Counts(0, 0, 7), "public.r",
						new TableWrites.Counts(0, 1, 2))),
				List.of("public.t", "public.r", "public.gone"));
		assertThat(counted.tables()).isEmpty();
		assertThat(counted.unknown()).containsOnlyKeys("public.t", "public.r", "public.gone");
		assertThat(counted.unknown().get("public.t")).contains("TRUNCATE");
		assertThat(counted.unknown().get("public.r")).contains("went back");
		assertThat(counted.describe()).startsWith("none counted; unknown: public.gone (");
	}

	@Test
	void whatCannotBeToldAtAllSaysWhy() {
		assertThat(GapDeletes.unknown("no reading").describe()).isEqualTo("unknown: no reading");
	}

}
