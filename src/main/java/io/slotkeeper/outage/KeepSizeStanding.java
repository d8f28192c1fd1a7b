package io.slotkeeper.outage;

import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

import io.slotkeeper.settings.RaisedLimit;
import io.slotkeeper.settings.SettingFinding;

import static io.slotkeeper.outage.KeepSizeGuard.SETTING;

/**
 * What this instance knows of each server's WAL-limit raise, for the settings audit: the
 * raise that stands, a raise refused (said once per reason), and why a put-back waits.
 */
final class KeepSizeStanding {

	private final Map<String, KeepSizeRaise> standing = new ConcurrentHashMap<>();

	private final Map<String, String> refused = new ConcurrentHashMap<>();

	private final Map<String, Instant> unneededSince = new ConcurrentHashMap<>();

	private final Map<String, Waiting> waiting = new ConcurrentHashMap<>();

	boolean knows(String server) {
		return this.standing.containsKey(server);
	}

	// Another instance acts for the server: what this one knew of it is no longer its to
	// show.
	void forget(String server) {
		this.standing.remove(server);
		this.refused.remove(server);
		this.unneededSince.remove(server);
	}

	void read(String server, KeepSizeRaise raise) {
		if (raise != null) {
			this.standing.put(server, raise);
		}
		else {
			this.standing.remove(server);
		}
	}

	void raised(String server, KeepSizeRaise raise) {
		this.standing.put(server, raise);
		this.refused.remove(server);
	}

	void yielded(String server, KeepSizeRaise raise) {
		this.standing.put(server, raise);
		this.waiting.remove(server);
	}

	void over(String server) {
		this.standing.remove(server);
		this.waiting.remove(server);
		this.unneededSince.remove(server);
	}

	/**
	 * Notes at a poll whether the raise that stands is still needed.
	 * @param server the server's key
	 * @param needed whether a consumer of the server still needs the room
	 * @param now the time of the poll
	 * @return the raise as the polls show it, empty when none stands
	 */
	Optional<RaisedLimit> observe(String server, boolean needed, Instant now) {
		KeepSizeRaise raise = this.standing.get(server);
		if (raise == null || needed) {
			this.unneededSince.remove(server);
		}
		else {
			this.unneededSince.putIfAbsent(server, now);
		}
		return Optional.ofNullable(raise)
			.map((stands) -> stands.shown(this.unneededSince.get(server), why(this.waiting.get(server))));
	}

	KeepSizeRaise raise(String server) {
		return this.standing.get(server);
	}

	/**
	 * Keeps what a put-back waits for.
	 * @return whether it waits for another slot than at the last poll, to be said
	 */
	boolean waits(String server, String slot, String why) {
		Waiting before = this.waiting.put(server, new Waiting(slot, why));
		return before == null || !before.slot().equals(slot);
	}

	void waitsNot(String server) {
		this.waiting.remove(server);
	}

	void refusedNot(String server) {
		this.refused.remove(server);
	}

	/**
	 * Keeps why a raise was refused.
	 * @return whether the reason is new, to be said
	 */
	boolean refused(String server, String reason) {
		return !reason.equals(this.refused.put(server, reason));
	}

	/**
	 * The findings that stand for the settings audit: a raise refused, or a raise in
	 * force.
	 * @param server the server's key
	 * @param currentMegabytes the setting's value now
	 * @param notDurable why the raise is kept in memory only, or {@code null}
	 * @param now the time now
	 * @return the findings
	 */
	List<SettingFinding> findings(String server, long currentMegabytes, String notDurable, Instant now) {
		String refusal = this.refused.get(server);
		if (refusal != null) {
			return List.of(new SettingFinding(SETTING, currentMegabytes + "MB", SettingFinding.CRITICAL,
					"cannot be" + " raised for the slots whose consumer is gone (on-outage): " + refusal));
		}
		KeepSizeRaise raise = this.standing.get(server);
		return (raise == null) ? List.of() : List.of(raise.finding(currentMegabytes,
				raise.shown(this.unneededSince.get(server), why(this.waiting.get(server))), notDurable, now));
	}

	private static String why(Waiting waiting) {
		return (waiting != null) ? waiting.why() : null;
	}

	private record Waiting(String slot, String why) {
	}

}
