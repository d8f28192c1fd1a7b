package io.slotkeeper.heartbeat;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.atomic.AtomicReference;

import io.micrometer.core.instrument.MeterRegistry;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import org.springframework.util.backoff.BackOff;
import org.springframework.util.backoff.BackOffExecution;

import io.slotkeeper.config.HeartbeatProperties;
import io.slotkeeper.config.StandbySnapshotMode;
import io.slotkeeper.fleet.BeatLog;
import io.slotkeeper.fleet.Target;
import io.slotkeeper.sessions.FailureDescription;
import io.slotkeeper.sessions.ServerVersion;

/**
 * Books what each heartbeat attempt came to: the state, the meters, the log lines, the
 * backoff after failures and the target's beat log. Callers hold the heartbeat's lock.
 */
final class HeartbeatLedger {

	private final Target target;

	private final HeartbeatProperties settings;

	private final Clock clock;

	private final Instant startedAt;

	private final BackOff backOff;

	private final FailureLog failureLog;

	private final AtomicReference<HeartbeatState> state = new AtomicReference<>(HeartbeatState.EMPTY);

	private final HeartbeatMetrics metrics;

	private BackOffExecution backOffExecution;

	HeartbeatLedger(Target target, MeterRegistry registry, Clock clock) {
		this.target = target;
		this.settings = target.properties().heartbeat();
		this.clock = clock;
		this.startedAt = clock.instant();
		this.backOff = RetryDelays.of(this.settings.backoff());
		this.failureLog = new FailureLog(target.name(), target.properties().heartbeat().unhealthyAfter());
		this.metrics = new HeartbeatMetrics(registry, target, this.state);
	}

	void connecting() {
		this.metrics.connectionAttempted();
		this.state.updateAndGet(HeartbeatState::connectionAttempted);
	}

	void connected(boolean open) {
		this.state.updateAndGet((current) -> current.connected(open));
	}

	HeartbeatOutcome succeeded(String lsn, Duration took) {
		Instant now = this.clock.instant();
		HeartbeatState before = this.state.getAndUpdate((current) -> current.succeeded(lsn, now, took));
		if (lsn != null) {
			this.target.beats().add(new BeatLog.Beat(lsn, now));
		}
		this.metrics.succeeded(took);
		this.backOffExecution = null;
		this.failureLog.succeeded(before.consecutiveFailures());
		Duration rest = this.settings.interval().minus(took);
		return new HeartbeatOutcome(lsn, now, took, null, rest.isNegative() ? Duration.ZERO : rest);
	}

	HeartbeatOutcome standingBy(Duration took) {
		this.backOffExecution = null;
		Instant now = this.clock.instant();
		HeartbeatState before = this.state.getAndUpdate((current) -> current.standingBy(now));
		this.failureLog.succeeded(before.consecutiveFailures());
		return new HeartbeatOutcome(null, now, took, null, this.settings.interval());
	}

	HeartbeatOutcome failed(Throwable ex, Duration took) {
		Instant now = this.clock.instant();
		FailureDescription failure = FailureDescription.of(ex, now);
		HeartbeatState after = this.state.updateAndGet((current) -> current.failed(failure));
		this.metrics.failed();
		if (this.backOffExecution == null) {
			this.backOffExecution = this.backOff.start();
		}
		Duration retry = Duration.ofMillis(this.backOffExecution.nextBackOff());
		this.failureLog.failed(failure, ex, retry, after.consecutiveFailures());
		return new HeartbeatOutcome(null, now, took, failure, retry);
	}

	// A refusal is reported once (status, health, one log line) and the heartbeat goes on
	// without the snapshot; asked
	// for explicitly, that is a warning, while auto only tells which floor applies.
	void standbySnapshot(String outcome, StandbySnapshotMode mode) {
		if (outcome == null) {
			return;
		}
		HeartbeatState before = this.state.getAndUpdate((current) -> current.standbySnapshot(outcome));
		if (!outcome.equals(before.standbySnapshot()) && !SnapshotOrder.OK.equals(outcome)) {
			Logger logger = LoggerFactory.getLogger(HeartbeatLedger.class);
			String line = "Standby snapshot for target '{}' {}; heartbeats go on without it";
			if (mode == StandbySnapshotMode.ON) {
				logger.warn(line, this.target.name(), outcome);
			}
			else {
				logger.info(line, this.target.name(), outcome);
			}
		}
	}

	boolean failing() {
		return this.state.get().consecutiveFailures() > 0;
	}

	HeartbeatStatus status() {
		ServerVersion version = this.target.primary().version();
		return this.state.get()
			.assess(this.settings, this.startedAt, this.clock.instant(), new HeartbeatState.Facts(
					(version != null) ? version.text() : null, this.target.ownership().state()));
	}

}
