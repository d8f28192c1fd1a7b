package io.slotkeeper.audit;

import java.time.Clock;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Consumer;
import java.util.function.Function;
import java.util.function.Supplier;

import org.springframework.security.core.Authentication;
import org.springframework.security.core.context.SecurityContextHolder;

import io.slotkeeper.api.ProblemTypes;
import io.slotkeeper.problem.ProblemException;

/**
 * Runs a change asked through the API and records it, whatever it comes to: done,
 * dry-run, refused (a problem whose kind is a refusal: the request was not acceptable,
 * nothing changed) or failed (the target or a dependency failed, or anything unexpected).
 */
public class Auditor {

	/**
	 * The actor of what slot-keeper does by itself: healing, handovers, failovers
	 * noticed, databases found and retired.
	 */
	public static final String SELF = "slot-keeper";

	private final AuditJournal journal;

	private final Clock clock;

	private final List<Consumer<Happening>> listeners = new CopyOnWriteArrayList<>();

	/**
	 * Creates the auditor.
	 * @param journal where entries go
	 * @param clock the clock for timestamps
	 */
	public Auditor(AuditJournal journal, Clock clock) {
		this.journal = journal;
		this.clock = clock;
	}

	/**
	 * Runs and records a change.
	 * @param <T> what the change returns
	 * @param action what is asked, for example {@code slot.drop}
	 * @param target the target
	 * @param slot the slot, or {@code null}
	 * @param parameters the call's parameters
	 * @param change the change
	 * @param describe what the result says for the journal: outcome, status, LSNs,
	 * connector
	 * @return the change's result
	 */
	public <T> T run(String action, String target, String slot, Map<String, Object> parameters, Supplier<T> change,
			Function<T, Summary> describe) {
		Authentication authentication = SecurityContextHolder.getContext().getAuthentication();
		String actor = (authentication != null) ? authentication.getName() : "anonymous";
		return runAs(actor, action, target, slot, parameters, change, describe);
	}

	/**
	 * Runs and records a change made by slot-keeper itself or another named actor.
	 * @param <T> what the change returns
	 * @param actor who makes the change, for example {@code slot-keeper} for healing
	 * @param action what is asked
	 * @param target the target
	 * @param slot the slot, or {@code null}
	 * @param parameters the change's parameters
	 * @param change the change
	 * @param describe what the result says for the journal
	 * @return the change's result
	 */
	public <T> T runAs(String actor, String action, String target, String slot, Map<String, Object> parameters,
			Supplier<T> change, Function<T, Summary> describe) {
		T result;
		try {
			result = change.get();
		}
		catch (RuntimeException ex) {
			recordFailure(actor, action, target, slot, parameters, ex);
			throw ex;
		}
		recordOutcome(actor, action, target, slot, parameters, describe.apply(result));
		return result;
	}

	/**
	 * Records what a change made outside {@link #runAs} came to.
	 * @param actor who made it
	 * @param action what was done
	 * @param target the target
	 * @param slot the slot, or {@code null}
	 * @param parameters the change's parameters
	 * @param summary what it came to
	 */
	public void recordOutcome(String actor, String action, String target, String slot, Map<String, Object> parameters,
			Summary summary) {
		record(actor, action, target, slot, parameters, summary.outcome(), summary.status(), summary.detail(),
				summary.lsns(), summary.connector());
	}

	/**
	 * Records a change that did not succeed: refused (a problem whose kind is a refusal)
	 * or failed (anything else).
	 * @param actor who tried it
	 * @param action what was tried
	 * @param target the target
	 * @param slot the slot, or {@code null}
	 * @param parameters the change's parameters
	 * @param failure what it came to
	 */
	public void recordFailure(String actor, String action, String target, String slot, Map<String, Object> parameters,
			RuntimeException failure) {
		if (failure instanceof ProblemException problem) {
			record(actor, action, target, slot, parameters, problem.kind().refusal() ? "refused" : "failed",
					ProblemTypes.status(problem.kind()), problem.getMessage(), Map.of(), null);
		}
		else {
			record(actor, action, target, slot, parameters, "failed", ProblemTypes.unexpectedStatus(),
					failure.getClass().getSimpleName(), Map.of(), null);
		}
	}

	/**
	 * Records something that was not done, such as healing stopped by its rate limit.
	 * @param actor who would have acted
	 * @param action what was not done
	 * @param target the target
	 * @param slot the slot
	 * @param detail why
	 */
	public void recordRefusal(String actor, String action, String target, String slot, String detail) {
		record(actor, action, target, slot, Map.of(), "refused", 429, detail, Map.of(), null);
	}

	private void record(String actor, String action, String target, String slot, Map<String, Object> parameters,
			String outcome, int status, String detail, Map<String, String> lsns, String connector) {
		this.journal.record(new AuditEntry(this.clock.instant(), actor, groups(actor), action, target, slot, parameters,
				outcome, status, detail, lsns, connector));
	}

	// A cluster user's groups come with its sign-in; a static token and slot-keeper
	// itself have none.
	private static List<String> groups(String actor) {
		Authentication authentication = SecurityContextHolder.getContext().getAuthentication();
		if (authentication != null && authentication.getDetails() instanceof Actor signedIn
				&& signedIn.name().equals(actor)) {
			return signedIn.groups();
		}
		return List.of();
	}

	/**
	 * Tells what happened to those who listen (Kubernetes Events); never waits for them.
	 * @param happening what happened
	 */
	public void tell(Happening happening) {
		this.listeners.forEach((listener) -> listener.accept(happening));
	}

	/**
	 * Listens to what is told from now on.
	 * @param listener takes each happening, on the teller's thread: it must not wait
	 */
	public void listen(Consumer<Happening> listener) {
		this.listeners.add(listener);
	}

	/**
	 * A change's parameters for the journal, in the order given, leaving out those not
	 * set.
	 * @param keyValues names and values, alternating
	 * @return the parameters whose value is not {@code null}
	 */
	public static Map<String, Object> parameters(Object... keyValues) {
		Map<String, Object> parameters = new LinkedHashMap<>();
		for (int i = 0; i < keyValues.length; i += 2) {
			if (keyValues[i + 1] != null) {
				parameters.put((String) keyValues[i], keyValues[i + 1]);
			}
		}
		return parameters;
	}

	/**
	 * What a change came to, for the journal.
	 *
	 * @param outcome {@code done} or {@code dry-run}
	 * @param status the HTTP status answered
	 * @param detail a note, or {@code null}
	 * @param lsns LSNs involved
	 * @param connector what the connector restart came to, or {@code null}
	 */
	public record Summary(String outcome, int status, String detail, Map<String, String> lsns, String connector) {
	}

}
