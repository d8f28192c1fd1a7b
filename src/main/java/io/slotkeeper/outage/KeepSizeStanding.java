package io.slotkeeper.outage;

import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

import io.slotkeeper.settings.SettingFinding;

import static io.slotkeeper.outage.KeepSizeGuard.SETTING;

/**
 * What this instance knows of each server's WAL-limit raise, for the settings audit: the raise that stands, a raise
 * refused (said once per reason), and why a put-back waits.
 */
final class KeepSizeStanding {

	private final Map<String, KeepSizeRaise> standing = new ConcurrentHashMap<>();

	private final Map<String, String> refused = new ConcurrentHashMap<>();

	private final Map<String, String> waiting = new ConcurrentHashMap<>();

	boolean knows(String server) {
		return this.standing.containsKey(server);
	}

	// Another instance acts for the server: what this one knew of it is no longer its to show.
	void forget(String server) {
		this.standing.remove(server);
		this.refused.remove(server);
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
	}

	void waits(String server, String why) {
		this.waiting.put(server, why);
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
	 * The findings that stand for the settings audit: a raise refused, or a raise in force.
	 * @param server the server's key
	 * @param currentMegabytes the setting's value now
	 * @param notDurable why the raise is kept in memory only, or {@code null}
	 * @return the findings
	 */
	List<SettingFinding> findings(String server, long currentMegabytes, String notDurable) {
		String refusal = this.refused.get(server);
		if (refusal != null) {
			return List.of(new SettingFinding(SETTING, currentMegabytes + "MB", SettingFinding.CRITICAL, "cannot be"
					+ " raised for the slots whose consumer is gone (on-outage): " + refusal));
		}
		KeepSizeRaise raise = this.standing.get(server);
		return (raise == null) ? List.of() : List.of(raise.finding(currentMegabytes, this.waiting.get(server),
				notDurable));
	}

}
