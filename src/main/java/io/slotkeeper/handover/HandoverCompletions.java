package io.slotkeeper.handover;

import java.sql.Connection;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicReference;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.slotkeeper.config.ConnectorProperties;
import io.slotkeeper.fleet.Target;
import io.slotkeeper.handover.PendingHandovers.Pending;
import io.slotkeeper.resnapshot.Resnapshots;
import io.slotkeeper.sessions.AdvisoryLocks;

/**
 * Completes the handovers that waited for Kafka Connect ({@link PendingHandovers}), under
 * the target's change lock so that two instances, or a recreate running meanwhile, never
 * hand one connector over twice: the connector is stopped, its offsets set to the
 * position the recreate kept (or the slot's confirmed position now, when it moved on), it
 * is resumed and awaited, exactly as a recreate with Connect up does; then the
 * re-snapshot its slot asks for is sent. A lock another holds, or a Connect still
 * unreachable, leaves it for the next poll.
 */
public final class HandoverCompletions {

	private static final Logger logger = LoggerFactory.getLogger(HandoverCompletions.class);

	private final PendingHandovers pending;

	private final ConnectorHandovers handovers;

	private final Resnapshots resnapshots;

	public HandoverCompletions(PendingHandovers pending, ConnectorHandovers handovers, Resnapshots resnapshots) {
		this.pending = pending;
		this.handovers = handovers;
		this.resnapshots = resnapshots;
	}

	public List<CompletedHandover> complete(Target target) {
		if (!this.pending.mayHave(target)) {
			return List.of();
		}
		List<Completion> completed = target.primary().withConnection((connection) -> {
			long key = AdvisoryLocks.changeKey(target.name());
			if (!AdvisoryLocks.tryLock(connection, key)) {
				return List.of();
			}
			try {
				List<Completion> done = new ArrayList<>();
				for (Pending waiting : this.pending.waiting(connection, target)) {
					Optional<ConnectorProperties> connector = target.slots()
						.connectorOf(waiting.slot())
						.filter((configured) -> configured.name().equals(waiting.connector()));
					if (connector.isEmpty() && !target.slots().connectorsKnown()) {
						continue;
					}
					if (connector.isEmpty()) {
						logger.info("The pending handover of connector '{}' (slot '{}') is dropped: the slot no longer"
								+ " names that connector", waiting.connector(), waiting.slot());
						this.pending.done(connection, target, waiting.slot());
						continue;
					}
					Handover handover = this.handovers.plan(connector.get(), waiting.chosen());
					handover.readAndStop();
					if (handover.unreachable() != null) {
						continue;
					}
					AtomicReference<Long> alignedTo = new AtomicReference<>(waiting.position());
					ConnectorHandover outcome = this.handovers.complete(handover, () -> {
						alignedTo.set(ReleasedPosition.read(connection, waiting.slot(), waiting.position()));
						return alignedTo.get();
					});
					if (!outcome.pending()) {
						this.pending.done(connection, target, waiting.slot());
						done.add(new Completion(waiting, alignedTo.get(), outcome));
					}
				}
				return done;
			}
			finally {
				AdvisoryLocks.unlock(connection, key);
			}
		});
		// Sent after the lock is let go: the signal takes a session of its own from the
		// same pool.
		return completed.stream()
			.map((done) -> new CompletedHandover(done.pending().slot(), done.position(), done.pending().since(),
					done.pending().reason(), done.connector(),
					this.resnapshots.afterRecreate(target, done.pending().slot(), done.pending().position(),
							done.connector().readsTheNewSlot())))
			.toList();
	}

	private record Completion(Pending pending, Long position, ConnectorHandover connector) {
	}

}
