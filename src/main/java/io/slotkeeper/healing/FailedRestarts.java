package io.slotkeeper.healing;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.slotkeeper.audit.Auditor;
import io.slotkeeper.config.OnFailed;
import io.slotkeeper.config.SlotPolicyProperties;
import io.slotkeeper.connect.ChosenState;
import io.slotkeeper.connect.ConnectorClient;
import io.slotkeeper.connect.ConnectorOutcome;
import io.slotkeeper.connect.ConnectorStatus;
import io.slotkeeper.fleet.Target;
import io.slotkeeper.replication.ReplicationSlot;
import io.slotkeeper.watching.ConnectorStates;

/**
 * {@code on-failed: restart} for one target: a connector, or a task of it, FAILED for
 * {@value #GRACE_SECONDS} s while its slot is healthy is restarted (its failed tasks), by
 * the target's owner, at most {@code max-restarts-per-hour} times an hour; audited as
 * {@value #ACTION} and counted in {@code slotkeeper_connector_restarts_total}. What
 * healing repairs is left to it (a lost or missing slot, a task failed on an offset older
 * than its slot), and what a user chose stays chosen: a connector stopped or paused, even
 * between the status and the restart, is never restarted.
 */
final class FailedRestarts {

	/** The audit's action. */
	static final String ACTION = "connector.restart";

	/**
	 * How long a failure stands before the restart: Kafka Connect's, Debezium's or
	 * Strimzi's own go first.
	 */
	static final int GRACE_SECONDS = 5;

	private static final Duration GRACE = Duration.ofSeconds(GRACE_SECONDS);

	private static final Duration HOUR = Duration.ofHours(1);

	private static final Logger logger = LoggerFactory.getLogger(FailedRestarts.class);

	private final ConnectorClient connectors;

	private final Auditor auditor;

	private final MeterRegistry registry;

	private final Clock clock;

	private final Map<String, Failure> failures = new ConcurrentHashMap<>();

	private final Set<String> primed = ConcurrentHashMap.newKeySet();

	FailedRestarts(ConnectorClient connectors, Auditor auditor, MeterRegistry registry, Clock clock) {
		this.connectors = connectors;
		this.auditor = auditor;
		this.registry = registry;
		this.clock = clock;
	}

	/**
	 * Restarts the failed connectors of the target's slots whose policy says
	 * {@code on-failed: restart}, when due.
	 * @param target the target
	 * @param states the connectors' states as the last poll asked
	 * @param slots the primary's slots as the last poll read them
	 */
	void restartFailed(Target target, ConnectorStates states, List<ReplicationSlot> slots) {
		Instant now = this.clock.instant();
		for (SlotPolicyProperties policy : target.slots().policies()) {
			if (policy.onFailed() != OnFailed.RESTART || policy.connector() == null) {
				continue;
			}
			Failure failure = this.failures.computeIfAbsent(policy.name(), (name) -> new Failure());
			ConnectorStatus status = states.of(target.name(), policy.name()).orElse(null);
			boolean slotHealthy = slots.stream()
				.anyMatch((slot) -> slot.slotName().equals(policy.name()) && !slot.invalidated());
			if (status == null || !status.failed() || status.staleOffset() || !slotHealthy
					|| !target.ownership().owned()) {
				failure.since = null;
				continue;
			}
			// A status read just after a restart may still show the failure the restart
			// ends.
			Instant checked = Objects.requireNonNullElse(status.checkedAt(), now);
			Instant lastRestart = failure.restarts.peekLast();
			Instant seen = (lastRestart == null) ? checked : latest(checked, lastRestart.plus(GRACE));
			failure.since = (failure.since == null) ? seen : failure.since;
			if (Duration.between(failure.since, now).compareTo(GRACE) >= 0) {
				restart(target, policy, status, failure, now);
			}
		}
	}

	private void restart(Target target, SlotPolicyProperties policy, ConnectorStatus status, Failure failure,
			Instant now) {
		String connector = policy.connector().name();
		failure.restarts.removeIf((at) -> at.isBefore(now.minus(HOUR)));
		if (failure.restarts.size() >= policy.maxRestartsPerHour()) {
			if (!failure.refusalSaid) {
				failure.refusalSaid = true;
				String why = "connector " + connector + " is FAILED again after " + failure.restarts.size()
						+ " restarts in the last hour (max-restarts-per-hour " + policy.maxRestartsPerHour()
						+ "); left FAILED: find why it keeps failing (" + status.summary() + ")";
				logger.warn("Not restarting the connector of slot '{}' of target '{}': {}", policy.name(),
						target.name(), why);
				this.auditor.recordRefusal(Auditor.SELF, ACTION, target.name(), policy.name(), why);
				count(target, policy, "refused");
			}
			return;
		}
		failure.refusalSaid = false;
		ChosenState chosen = this.connectors.chosenState(policy.connector());
		if (chosen != ChosenState.RUNNING) {
			failure.since = null;
			return;
		}
		failure.restarts.add(now);
		failure.since = null;
		ConnectorOutcome outcome = this.connectors.restart(policy.connector());
		Map<String, Object> parameters = Auditor.parameters("onFailed", "restart", "connector", connector);
		String detail = (outcome.restarted() ? "restarted its failed tasks: "
				: "restart failed: " + outcome.detail() + "; it was ") + status.summary();
		this.auditor.recordOutcome(Auditor.SELF, ACTION, target.name(), policy.name(), parameters,
				new Auditor.Summary(outcome.restarted() ? "done" : "failed",
						Objects.requireNonNullElse(outcome.status(), 502), detail, Map.of(), null));
		logger.warn("Connector '{}' of slot '{}' (target '{}') {}", connector, policy.name(), target.name(), detail);
		count(target, policy, outcome.restarted() ? "done" : "failed");
	}

	/**
	 * Exports the counters of every slot of the target at 0 from the start, whatever its
	 * {@code on-failed}: an alert on their increase sees the first restart, and a panel
	 * reads 0, not "no data".
	 * @param target the target
	 */
	void prime(Target target) {
		for (SlotPolicyProperties policy : target.slots().policies()) {
			if (this.primed.add(policy.name())) {
				List.of("done", "failed", "refused").forEach((outcome) -> counter(target, policy, outcome));
			}
		}
	}

	private void count(Target target, SlotPolicyProperties policy, String outcome) {
		counter(target, policy, outcome).increment();
	}

	private Counter counter(Target target, SlotPolicyProperties policy, String outcome) {
		return Counter.builder("slotkeeper.connector.restarts")
			.description("Restarts of a slot's FAILED connector by on-failed: restart, by outcome (done, failed,"
					+ " refused: its hourly budget spent)")
			.tags("target", target.name(), "slot", policy.name(), "outcome", outcome)
			.register(this.registry);
	}

	private static Instant latest(Instant one, Instant other) {
		return one.isBefore(other) ? other : one;
	}

	// One slot's connector: since when it has been seen FAILED, and the restarts of the
	// last hour.
	private static final class Failure {

		private volatile Instant since;

		private volatile boolean refusalSaid;

		private final Deque<Instant> restarts = new ArrayDeque<>();

	}

}
