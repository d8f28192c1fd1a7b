package io.slotkeeper.handover;

import java.util.List;
import java.util.Map;

import io.slotkeeper.connect.ChosenState;

/**
 * Where one handover stands, each phase with what it knows and nothing it does not:
 * planned (nothing asked), then what reading the connector before the change found — its
 * offsets left alone as configured, Debezium healing itself, Kafka Connect unreachable,
 * the offsets API or the stop refused, or the connector stopped with its offsets read —
 * and completed once its outcome is known. {@link #name()} is the phase as the audit and
 * the API say it.
 */
public sealed interface HandoverPhase {

	/**
	 * The phase as the audit, the logs and the API say it.
	 * @return for example {@code stopped}
	 */
	String name();

	/**
	 * Nothing asked of Kafka Connect yet; {@link Handover#readAndStop()} moves it on, or,
	 * with offsets left alone, it is completed from here.
	 */
	record Planned() implements HandoverPhase {

		@Override
		public String name() {
			return "planned";
		}

	}

	/**
	 * What reading the connector before the change found.
	 */
	sealed interface Read extends HandoverPhase {

		/**
		 * The Strimzi operator's restart count before slot-keeper changed anything.
		 * @return the count, {@code null} where the connector has no operator
		 */
		Integer restartsBefore();

	}

	/**
	 * The connector's offsets are left alone ({@code connector.offsets: leave}): it is
	 * restarted after the change.
	 *
	 * @param restartsBefore the Strimzi operator's restart count before, {@code null}
	 * where there is none
	 */
	record LeftAlone(Integer restartsBefore) implements Read {

		@Override
		public String name() {
			return "left-alone";
		}

	}

	/**
	 * Debezium moves a stale offset up to the new slot by itself
	 * ({@code offset.mismatch.strategy}): restarted only.
	 *
	 * @param reason why, for the answer and the audit
	 * @param restartsBefore the Strimzi operator's restart count before, {@code null}
	 * where there is none
	 */
	record SelfHealing(String reason, Integer restartsBefore) implements Read {

		@Override
		public String name() {
			return "self-healing";
		}

	}

	/**
	 * Kafka Connect could not be reached: the handover is kept and completed once it
	 * answers.
	 *
	 * @param error what the call failed with
	 * @param restartsBefore the Strimzi operator's restart count before, {@code null}
	 * where there is none
	 */
	record Unreachable(String error, Integer restartsBefore) implements Read {

		@Override
		public String name() {
			return "unreachable";
		}

	}

	/**
	 * Kafka Connect refused the offsets API or the stop: the connector is restarted after
	 * the change instead.
	 *
	 * @param warning what was refused and what it means for the connector
	 * @param offsetsBefore its stored offsets when they were listed before the refusal,
	 * else {@code null}
	 * @param restartsBefore the Strimzi operator's restart count before, {@code null}
	 * where there is none
	 */
	record Refused(String warning, List<Map<String, Object>> offsetsBefore, Integer restartsBefore) implements Read {

		@Override
		public String name() {
			return "refused";
		}

	}

	/**
	 * The connector is stopped, its configuration and offsets read: its offsets are
	 * aligned or reset after the change.
	 *
	 * @param chosen the state its user chose, which the handover leaves it in
	 * @param config its configuration
	 * @param offsetsBefore its stored offsets
	 * @param restartsBefore the Strimzi operator's restart count before, {@code null}
	 * where there is none
	 */
	record Stopped(ChosenState chosen, Map<String, Object> config, List<Map<String, Object>> offsetsBefore,
			Integer restartsBefore) implements Read {

		@Override
		public String name() {
			return "stopped";
		}

	}

	/**
	 * The outcome is known (running, left as its user had it, not running, or pending).
	 *
	 * @param from the phase it was completed from
	 * @param outcome what became of the connector
	 */
	record Completed(HandoverPhase from, ConnectorHandover outcome) implements HandoverPhase {

		@Override
		public String name() {
			return "completed";
		}

	}

}
