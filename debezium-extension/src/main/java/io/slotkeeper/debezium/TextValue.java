package io.slotkeeper.debezium;

import java.math.BigDecimal;
import java.util.HexFormat;

import io.debezium.connector.postgresql.PostgresValueConverter;
import io.debezium.connector.postgresql.connection.AbstractColumnValue;
import io.debezium.data.SpecialValueDecimal;

/**
 * A column's value as PostgreSQL's text output, as pgoutput sends it and slot-keeper's
 * journal keeps it, read the way the PostgreSQL connector reads a streamed value: the
 * date and time forms through Debezium's own parsers.
 */
final class TextValue extends AbstractColumnValue<String> {

	private final String text;

	TextValue(String text) {
		this.text = text;
	}

	@Override
	public String getRawValue() {
		return this.text;
	}

	@Override
	public boolean isNull() {
		return this.text == null;
	}

	@Override
	public String asString() {
		return this.text;
	}

	@Override
	public Boolean asBoolean() {
		return switch (this.text) {
			case "t" -> Boolean.TRUE;
			case "f" -> Boolean.FALSE;
			default -> throw new IllegalArgumentException("not a boolean");
		};
	}

	@Override
	public Integer asInteger() {
		return Integer.valueOf(this.text);
	}

	@Override
	public Long asLong() {
		return Long.valueOf(this.text);
	}

	@Override
	public Float asFloat() {
		return Float.valueOf(this.text);
	}

	@Override
	public Double asDouble() {
		return Double.valueOf(this.text);
	}

	@Override
	public SpecialValueDecimal asDecimal() {
		return PostgresValueConverter.toSpecialValue(this.text)
			.orElseGet(() -> new SpecialValueDecimal(new BigDecimal(this.text)));
	}

	// bytea's output in its default form, hex: \x followed by two digits a byte.
	@Override
	public byte[] asByteArray() {
		if (!this.text.startsWith("\\x")) {
			throw new IllegalArgumentException("not bytea in hex output");
		}
		return HexFormat.of().parseHex(this.text, 2, this.text.length());
	}

}
