package io.slotkeeper.resnapshot;

import java.util.List;

import org.junit.jupiter.api.Test;

import io.slotkeeper.resnapshot.SignalTableCheck.Column;
import io.slotkeeper.resnapshot.SignalTableCheck.Shape;

import static org.assertj.core.api.Assertions.assertThat;

class SignalTableCheckTests {

	private static final Shape PLAIN = new Shape("r", "heap", false, false, false, false, false, null, false);

	private static Column text(String name) {
		return new Column(name, "character varying", true, false, false, false);
	}

	private static final List<Column> SIGNAL = List.of(text("id"), text("type"), text("data"));

	@Test
	void aPlainHeapTableOfTheThreeTextColumnsIsAllowed() {
		assertThat(SignalTableCheck.judge(PLAIN, SIGNAL)).isNull();
		assertThat(SignalTableCheck.judge(PLAIN, List.of(new Column("id", "text", true, false, false, false),
				new Column("type", "character", true, false, false, false), text("data"))))
			.isNull();
	}

	@Test
	void anyColumnBeyondTheSignalsOrInAnotherOrderIsRefused() {
		assertThat(SignalTableCheck.judge(PLAIN, List.of(text("id"), text("type"), text("data"), text("x"))))
			.isEqualTo("has the columns id, type, data, x where Debezium's signal has exactly id, type, data,"
					+ " in that order");
		assertThat(SignalTableCheck.judge(PLAIN, List.of(text("type"), text("id"), text("data"))))
			.startsWith("has the columns type, id, data");
		assertThat(SignalTableCheck.judge(PLAIN, List.of(text("id"), text("type")))).startsWith("has the columns");
	}

	@Test
	void aColumnThatCouldRunCodeIsRefusedByName() {
		assertThat(SignalTableCheck.judge(PLAIN,
				List.of(text("id"), new Column("type", "public.d", false, false, false, false), text("data"))))
			.isEqualTo("has the column type of type public.d, not a built-in text type (text, character varying,"
					+ " character)");
		assertThat(SignalTableCheck.judge(PLAIN,
				List.of(text("id"), new Column("type", "xml", true, false, false, false), text("data"))))
			.startsWith("has the column type of type xml");
		assertThat(SignalTableCheck.judge(PLAIN,
				List.of(text("id"), text("type"), new Column("data", "character varying", true, true, false, false))))
			.isEqualTo("has a default on the column data");
		assertThat(SignalTableCheck.judge(PLAIN,
				List.of(text("id"), text("type"), new Column("data", "character varying", true, true, true, false))))
			.isEqualTo("has the generated column data");
		assertThat(SignalTableCheck.judge(PLAIN,
				List.of(new Column("id", "text", true, true, false, true), text("type"), text("data"))))
			.isEqualTo("has the identity column id");
	}

	@Test
	void everythingOfTheTableThatIsNotPlainIsRefused() {
		assertThat(SignalTableCheck.judge(new Shape("v", null, false, false, false, false, false, null, false), SIGNAL))
			.isEqualTo("is not a plain table (relkind v)");
		assertThat(SignalTableCheck.judge(new Shape("p", null, false, false, false, false, false, null, false), SIGNAL))
			.startsWith("is not a plain table");
		assertThat(SignalTableCheck.judge(new Shape("r", "columnar", false, false, false, false, false, null, false),
				SIGNAL))
			.isEqualTo("uses the table access method columnar, not heap");
		assertThat(
				SignalTableCheck.judge(new Shape("r", "heap", false, false, true, false, false, null, false), SIGNAL))
			.startsWith("is part of an inheritance or partition tree");
		assertThat(
				SignalTableCheck.judge(new Shape("r", "heap", false, false, false, true, false, null, false), SIGNAL))
			.startsWith("is part of an inheritance or partition tree");
		assertThat(
				SignalTableCheck.judge(new Shape("r", "heap", true, false, false, false, false, null, false), SIGNAL))
			.isEqualTo("has row-level security");
		assertThat(
				SignalTableCheck.judge(new Shape("r", "heap", false, true, false, false, false, null, false), SIGNAL))
			.isEqualTo("has a rule");
		assertThat(
				SignalTableCheck.judge(new Shape("r", "heap", false, false, false, false, true, null, false), SIGNAL))
			.isEqualTo("has a trigger");
		assertThat(
				SignalTableCheck.judge(new Shape("r", "heap", false, false, false, false, false, "cf", false), SIGNAL))
			.startsWith("has a constraint other than NOT NULL, primary key or unique (types cf");
		assertThat(
				SignalTableCheck.judge(new Shape("r", "heap", false, false, false, false, false, null, true), SIGNAL))
			.startsWith("has an index that is not a plain B-tree");
	}

}
