package io.slotkeeper.slot;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

import org.springframework.http.MediaType;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Property: whatever a slot or plugin name holds, a name outside
 * {@code ^[a-z0-9_]{1,63}$} is answered 400 before anything runs on the server, never
 * 500. Names are drawn from a seeded generator (quotes, semicolons, comments, unicode,
 * white space, upper case, 64+ characters); the seed is in the test's name to replay a
 * failure.
 */
class SlotNameFuzzTests extends SlotApiTestSupport {

	private static final Pattern VALID = Pattern.compile("^[a-z0-9_]{1,63}$");

	private static final String[] PIECES = { "'", "\"", ";", "--", "/*", "*/", " ", "\t", "\n", "é", "字", "😀", "\\",
			"%", "$1", "DROP", "Slot", ")", "(", ",", "a", "z", "_", "0", "9", "-", ".", "\u0000", "\u202e" };

	private static final long SEED = 20261130L;

	@TestFactory
	Stream<DynamicTest> invalidNamesAreRefusedWith400AndNothingRuns() {
		Random random = new Random(SEED);
		List<String> names = new ArrayList<>(List.of("", "a".repeat(64), "x".repeat(200),
				"slot'; DROP TABLE orders; --", "UPPER", "with space", "dash-ed"));
		while (names.size() < 120) {
			StringBuilder name = new StringBuilder();
			int pieces = 1 + random.nextInt(12);
			for (int i = 0; i < pieces; i++) {
				name.append(PIECES[random.nextInt(PIECES.length)]);
			}
			if (random.nextInt(10) == 0) {
				name.append("b".repeat(64));
			}
			if (!VALID.matcher(name).matches()) {
				names.add(name.toString());
			}
		}
		String slotsBefore = slotNames();
		return names.stream().map((name) -> DynamicTest.dynamicTest("seed " + SEED + ": " + printable(name), () -> {
			int created = operator().post()
				.uri("/api/v1/targets/main/slots")
				.contentType(MediaType.APPLICATION_JSON)
				.body(Map.of("name", name, "plugin", "pgoutput"))
				.exchange()
				.returnResult(byte[].class)
				.getStatus()
				.value();
			int plugin = operator().post()
				.uri("/api/v1/targets/main/slots")
				.contentType(MediaType.APPLICATION_JSON)
				.body(Map.of("name", "fuzz_target", "plugin", name))
				.exchange()
				.returnResult(byte[].class)
				.getStatus()
				.value();
			int dropped = operator().delete()
				.uri("/api/v1/targets/main/slots/{slot}", name)
				.exchange()
				.returnResult(byte[].class)
				.getStatus()
				.value();
			int recreated = operator().post()
				.uri("/api/v1/targets/main/slots/{slot}/recreate?force=true", name)
				.exchange()
				.returnResult(byte[].class)
				.getStatus()
				.value();
			int read = viewer().get()
				.uri("/api/v1/targets/main/slots/{slot}", name)
				.exchange()
				.returnResult(byte[].class)
				.getStatus()
				.value();
			assertThat(List.of(created, plugin)).as("bodies are checked by validation").containsOnly(400);
			// An empty path segment is another URL (the collection) that does not take
			// DELETE or this POST.
			assertThat(List.of(dropped, recreated, read)).allSatisfy(
					(status) -> assertThat(status).isIn(name.isEmpty() ? List.of(400, 404, 405, 200) : List.of(400)));
			assertThat(slotNames()).isEqualTo(slotsBefore);
		}));
	}

	private static String slotNames() {
		return server().queryForString("postgres",
				"SELECT string_agg(slot_name, ',' ORDER BY slot_name) FROM pg_replication_slots");
	}

	private static String printable(String name) {
		StringBuilder shown = new StringBuilder();
		name.codePoints()
			.limit(40)
			.forEach(
					(c) -> shown.append((c < 32 || c == 0x202e) ? String.format("\\u%04x", c) : Character.toString(c)));
		return shown + ((name.length() > 40) ? "…(" + name.length() + ")" : "");
	}

}
