package io.slotkeeper.slot;

import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.function.Supplier;

/**
 * Requests for the same thing that arrive together are answered by one piece of work, as
 * a database groups commits: each caller gets the result of work that <em>started after
 * it arrived</em> (never an older answer), and while one run is in flight every caller
 * that arrives meanwhile waits for it to end and is then served by a single next run. A
 * failure is every waiter's of that run. Dashboards polling one listing at once cost one
 * query and one JSON rendering per round instead of one per caller.
 *
 * @param <K> what identifies the work
 * @param <V> its result
 */
final class Coalescing<K, V> {

	private final Map<K, Run<V>> gathering = new HashMap<>();

	private final Map<K, Run<V>> inFlight = new HashMap<>();

	/**
	 * The result of a run of the work that starts after this call.
	 * @param key what identifies the work
	 * @param work the work, run by one of the callers waiting for it
	 * @return its result
	 */
	V get(K key, Supplier<V> work) {
		Run<V> run;
		boolean leads;
		synchronized (this) {
			run = this.gathering.get(key);
			leads = run == null;
			if (leads) {
				run = new Run<>(this.inFlight.get(key));
				this.gathering.put(key, run);
			}
		}
		if (leads) {
			lead(key, run, work);
		}
		try {
			return run.result.join();
		}
		catch (CompletionException ex) {
			if (ex.getCause() instanceof Error error) {
				throw error;
			}
			throw (ex.getCause() instanceof RuntimeException failure) ? failure : ex;
		}
	}

	private void lead(K key, Run<V> run, Supplier<V> work) {
		if (run.previous != null) {
			run.previous.result.handle((result, failure) -> null).join();
		}
		synchronized (this) {
			this.gathering.remove(key);
			this.inFlight.put(key, run);
		}
		try {
			run.result.complete(work.get());
		}
		catch (RuntimeException | Error ex) {
			run.result.completeExceptionally(ex);
		}
		finally {
			synchronized (this) {
				this.inFlight.remove(key, run);
			}
		}
	}

	/**
	 * How many keys have callers gathering or a run in flight: none once every caller is
	 * answered.
	 * @return the count
	 */
	synchronized int busy() {
		return this.gathering.size() + this.inFlight.size();
	}

	private record Run<V>(Run<V> previous, CompletableFuture<V> result) {

		Run(Run<V> previous) {
			this(previous, new CompletableFuture<>());
		}

	}

}
