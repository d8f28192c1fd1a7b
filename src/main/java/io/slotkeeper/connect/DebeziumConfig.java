package io.slotkeeper.connect;

import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;
import java.util.regex.PatternSyntaxException;

/**
 * A Debezium connector's configuration read as Debezium reads it: unset settings take
 * their defaults, lists are comma-separated, prefix lists are regular expressions that
 * match the whole prefix, ignoring case.
 */
final class DebeziumConfig {

	private final Map<String, String> config;

	DebeziumConfig(Map<String, String> config) {
		this.config = config;
	}

	boolean has(String setting) {
		String value = this.config.get(setting);
		return value != null && !value.isBlank();
	}

	String get(String setting, String otherwise) {
		return has(setting) ? this.config.get(setting).strip() : otherwise;
	}

	boolean on(String setting) {
		return "true".equalsIgnoreCase(get(setting, "false"));
	}

	long number(String setting) {
		try {
			return Long.parseLong(get(setting, "0"));
		}
		catch (NumberFormatException ex) {
			return 0;
		}
	}

	List<String> list(String setting) {
		return Arrays.stream(get(setting, "").split(",")).map(String::strip).filter((item) -> !item.isEmpty()).toList();
	}

	/**
	 * Whether logical-decoding messages of a prefix are dropped by the connector: named
	 * by {@code message.prefix.exclude.list}, or left out of a
	 * {@code message.prefix.include.list}.
	 */
	boolean excludesMessagePrefix(String prefix) {
		if (has("message.prefix.include.list")) {
			return list("message.prefix.include.list").stream().noneMatch((pattern) -> matches(pattern, prefix));
		}
		return list("message.prefix.exclude.list").stream().anyMatch((pattern) -> matches(pattern, prefix));
	}

	private static boolean matches(String pattern, String prefix) {
		try {
			return Pattern.compile(pattern, Pattern.CASE_INSENSITIVE).matcher(prefix).matches();
		}
		catch (PatternSyntaxException ex) {
			return pattern.equalsIgnoreCase(prefix);
		}
	}

}
