package io.slotkeeper.settings;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Every target's server settings as its polls last read and judged them, with the WAL
 * rate measured over its polls.
 */
public final class SettingsAudit {

	private final Map<String, WalRate> rates = new ConcurrentHashMap<>();

	private final Map<String, SettingsView> views = new ConcurrentHashMap<>();

	private final Map<String, List<SettingFinding>> actions = new ConcurrentHashMap<>();

	private final Map<String, List<SettingFinding>> judged = new ConcurrentHashMap<>();

	/**
	 * Judges what a poll read.
	 * @param target the target's name
	 * @param read the settings read with the poll
	 * @param outage the consumer outage the target's slots must survive (its
	 * {@code loss-warning})
	 * @param now when it was read
	 * @return the target's settings as now judged: the findings and the WAL rate
	 */
	public SettingsView update(String target, ServerSettings read, Duration outage, Instant now) {
		WalRate rate = this.rates.computeIfAbsent(target, (name) -> new WalRate());
		rate.record(read.readAt(), read.walPositionBytes());
		Optional<Double> perSecond = rate.perSecond();
		List<SettingFinding> judged = SettingsJudge.judge(read, perSecond, outage);
		Map<String, String> shown = new LinkedHashMap<>();
		read.settings().forEach((name, setting) -> shown.put(name, setting.shown()));
		SettingsView view = new SettingsView(target, now, perSecond.orElse(null), shown, read.slotsInUse(),
				read.walSendersInUse(), merged(this.actions.getOrDefault(target, List.of()), judged), read.gapCopies());
		this.judged.put(target, judged);
		this.views.put(target, view);
		return view;
	}

	private static List<SettingFinding> merged(List<SettingFinding> acted, List<SettingFinding> judged) {
		List<SettingFinding> findings = new ArrayList<>(acted);
		findings.addAll(judged);
		findings.sort(SettingFinding.MOST_SEVERE_FIRST);
		return List.copyOf(findings);
	}

	/**
	 * What slot-keeper itself does to a target's settings (a raise in force, a raise
	 * refused), shown with the findings of the poll that told it and of every poll after.
	 * @param target the target's name
	 * @param findings the findings that stand, none when nothing does
	 */
	public void acted(String target, List<SettingFinding> findings) {
		if (findings.isEmpty()) {
			this.actions.remove(target);
		}
		else {
			this.actions.put(target, List.copyOf(findings));
		}
		this.views.computeIfPresent(target,
				(name, view) -> new SettingsView(name, view.readAt(), view.walBytesPerSecond(), view.settings(),
						view.slotsInUse(), view.walSendersInUse(),
						merged(findings, this.judged.getOrDefault(name, List.of())), view.gapCopies()));
	}

	/**
	 * A target's settings as last judged.
	 * @param target the target's name
	 * @return the view, empty before its first poll
	 */
	public Optional<SettingsView> of(String target) {
		return Optional.ofNullable(this.views.get(target));
	}

	/**
	 * Forgets a target that left the fleet.
	 * @param target the target's name
	 */
	public void forget(String target) {
		this.rates.remove(target);
		this.views.remove(target);
		this.actions.remove(target);
		this.judged.remove(target);
	}

}
