package io.slotkeeper.resnapshot;

import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * What became of a gap's signals to slot-keeper's Debezium extension, as the extension's
 * acknowledgements in the signal table tell: nothing is taken as delivered that the
 * extension did not acknowledge.
 *
 * @param sentAt when the signals were committed
 * @param signalTable the signal table they were written to, where the acknowledgements
 * are read
 * @param signals each signal's fate
 * @param finished whether every signal was acknowledged, or the wait for them ended
 * @param notSent per table, what of its gap was not sent and why (the extension known not
 * to be installed, a bound passed), in words
 */
public record GapDelivery(Instant sentAt, String signalTable, List<SignalFate> signals, boolean finished,
		Map<String, String> notSent) {

	/**
	 * Per table, what its signals came to, in words: counts only, never a key or a value.
	 * @return the words, by table
	 */
	public Map<String, String> described() {
		Map<String, Map<String, Integer>> counts = new LinkedHashMap<>();
		Map<String, Set<String>> whys = new LinkedHashMap<>();
		for (SignalFate fate : this.signals) {
			counts.computeIfAbsent(fate.table(), (table) -> new LinkedHashMap<>())
				.merge(fate.noun() + " " + fate.state().words, fate.asked(), Integer::sum);
			if (fate.why() != null) {
				whys.computeIfAbsent(fate.table(), (table) -> new LinkedHashSet<>()).add(fate.why());
			}
		}
		Map<String, String> words = new LinkedHashMap<>();
		counts.forEach((table, counted) -> {
			List<String> said = new ArrayList<>();
			counted.forEach((what, count) -> said.add(count + " " + what));
			Set<String> why = whys.getOrDefault(table, Set.of());
			words.put(table, String.join(", ", said) + (why.isEmpty() ? "" : ": " + String.join("; ", why)));
		});
		return words;
	}

	/**
	 * The delivery in one line: whether it is done, and per table what came of it.
	 * @return for example {@code delivered: public.orders 5 deletes delivered}
	 */
	public String summary() {
		List<String> tables = new ArrayList<>();
		described().forEach((table, said) -> tables.add(table + " " + said));
		this.notSent.forEach((table, why) -> tables.add(table + " " + why));
		return (!this.finished ? "awaiting the extension's acknowledgements"
				: delivered() ? "delivered" : this.signals.isEmpty() ? "not sent" : "not all delivered") + ": "
				+ String.join("; ", tables);
	}

	/**
	 * Whether every signal was acknowledged as done whole.
	 * @return whether all was delivered
	 */
	public boolean delivered() {
		return this.notSent.isEmpty() && this.signals.stream().allMatch((fate) -> fate.state() == State.DELIVERED);
	}

	/**
	 * What one signal came to.
	 *
	 * @param id the signal's id
	 * @param type its type
	 * @param table the table it is for
	 * @param asked how many events it asked for
	 * @param state what the acknowledgement said, or that none came
	 * @param emitted how many events the extension said it emitted
	 * @param why why it was refused or not acknowledged, {@code null} otherwise
	 */
	public record SignalFate(String id, String type, String table, int asked, State state, int emitted, String why) {

		String noun() {
			return GapSignals.noun(this.type);
		}

	}

	/**
	 * A signal's fate.
	 */
	public enum State {

		/** Not acknowledged yet. */
		AWAITING("awaiting the extension's acknowledgement"),

		/** Acknowledged, every event asked for emitted. */
		DELIVERED("delivered"),

		/** Acknowledged, fewer emitted than asked for, or refused whole. */
		REFUSED("not delivered"),

		/** No acknowledgement within the wait. */
		UNACKNOWLEDGED("not acknowledged"),

		/**
		 * Not read when the slot was lost again: sent again with the next gap's signals,
		 * whose delivery follows it.
		 */
		CARRIED("sent again with the next gap's");

		private final String words;

		State(String words) {
			this.words = words;
		}

	}

}
