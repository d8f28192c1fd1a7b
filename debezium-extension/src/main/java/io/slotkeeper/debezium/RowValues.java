package io.slotkeeper.debezium;

import java.time.DateTimeException;
import java.util.Locale;

import io.debezium.relational.Column;

/**
 * A whole row's value of one column from its text, as the PostgreSQL connector decodes a
 * streamed one, for the column types an outbox table is made of. Any other type is
 * refused: the extension never guesses how a value would have been streamed.
 */
final class RowValues {

	private RowValues() {
	}

	/**
	 * A column's value.
	 * @param column the column
	 * @param text its value as PostgreSQL's text output, {@code null} for SQL NULL
	 * @return the value as the connector's converters take it
	 * @throws Refusal when the column's type is not one it reads, or the text is not of
	 * it
	 */
	static Object of(Column column, String text) {
		if (text == null) {
			return null;
		}
		TextValue value = new TextValue(text);
		try {
			String type = (column.typeName() != null) ? column.typeName().toLowerCase(Locale.ROOT) : "";
			return switch (type) {
				case "bool", "boolean" -> value.asBoolean();
				case "int2", "smallint", "int4", "int", "integer", "serial", "serial4", "smallserial", "serial2" ->
					value.asInteger();
				case "int8", "bigint", "bigserial", "serial8" -> value.asLong();
				case "float4", "real" -> value.asFloat();
				case "float8", "double precision" -> value.asDouble();
				case "numeric", "decimal" -> value.asDecimal();
				case "text", "varchar", "character varying", "bpchar", "char", "character", "uuid", "json", "jsonb",
						"xml", "citext" ->
					value.asString();
				case "date" -> value.asLocalDate();
				case "timestamp", "timestamp without time zone" -> value.asInstant();
				case "timestamptz", "timestamp with time zone" -> value.asOffsetDateTimeAtUtc();
				case "bytea" -> value.asByteArray();
				default -> throw new Refusal("column " + column.name() + " is of type " + column.typeName()
						+ ", which the extension does not read from text");
			};
		}
		catch (IllegalArgumentException | DateTimeException ex) {
			throw new Refusal("a value of column " + column.name() + " is not a " + column.typeName());
		}
	}

}
