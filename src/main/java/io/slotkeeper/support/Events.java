package io.slotkeeper.support;

import java.util.Map;

import org.slf4j.Logger;
import org.slf4j.MDC;
import org.slf4j.event.Level;
import org.slf4j.spi.LoggingEventBuilder;

/**
 * Log lines that are also events: the same text as ever, plus fields a log store can
 * query — {@code event.action} and the event's own fields as key-value pairs, which
 * structured logging ({@code logging.structured.format.console}) writes as JSON fields;
 * and the target a worker runs for in the MDC ({@value #TARGET}). One line per change (a
 * target going DOWN, an owner changing, a slot healed), never one per beat.
 */
public final class Events {

	/**
	 * The MDC key and event field that name the target a line is about.
	 */
	public static final String TARGET = "slotkeeper.target";

	private Events() {
	}

	/**
	 * Logs an event.
	 * @param logger the logger
	 * @param level its level
	 * @param action what happened, for example {@code heartbeat.down}
	 * @param fields more fields, in order; {@code null} values are left out
	 * @param message the line's text, with {@code {}} placeholders
	 * @param arguments the placeholders' values
	 */
	public static void log(Logger logger, Level level, String action, Map<String, ?> fields, String message,
			Object... arguments) {
		LoggingEventBuilder event = logger.atLevel(level).setMessage(message).addKeyValue("event.action", action);
		fields.forEach((name, value) -> {
			// The MDC may name the target already: the same field twice would make the
			// JSON line invalid.
			if (value != null && !(TARGET.equals(name) && value.equals(MDC.get(TARGET)))) {
				event.addKeyValue(name, value);
			}
		});
		for (Object argument : arguments) {
			event.addArgument(argument);
		}
		event.log();
	}

	/**
	 * Names the target in the MDC of this thread until the returned handle is closed, so
	 * that every line logged meanwhile carries it.
	 * @param target the target's name
	 * @return closes the MDC entry
	 */
	public static MDC.MDCCloseable about(String target) {
		return MDC.putCloseable(TARGET, target);
	}

}
