package io.slotkeeper.overview;

import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;

import io.slotkeeper.connect.ConnectorStatus;
import io.slotkeeper.fleet.Fleet;
import io.slotkeeper.fleet.Target;
import io.slotkeeper.heartbeat.Heartbeats;
import io.slotkeeper.heartbeat.TargetView;
import io.slotkeeper.lanes.LaneWatch;
import io.slotkeeper.replication.ReplicationSlot;
import io.slotkeeper.replication.SlotView;
import io.slotkeeper.settings.SettingsAudit;
import io.slotkeeper.settings.SettingsView;
import io.slotkeeper.slot.SlotReader;
import io.slotkeeper.watching.RetainedHistory;
import io.slotkeeper.watching.SlotHealthReadOuts;
import io.slotkeeper.watching.SlotPoller;
import io.slotkeeper.watching.SlotSnapshot;

/**
 * Puts the overview together from what heartbeats and polls already hold: every target is
 * assessed (for the counts and the order), only the asked page is written out.
 */
public class FleetOverview {

	private static final Comparator<Assessed> WORST_FIRST = Comparator.comparing(Assessed::severity)
		.thenComparing((assessed) -> assessed.target().name());

	private final Fleet fleet;

	private final Heartbeats heartbeats;

	private final SlotPoller poller;

	private final SlotReader reader;

	private final RetainedHistory history;

	private final SettingsAudit settings;

	private final LaneWatch lanes;

	private final SlotHealthReadOuts readOuts;

	private final Clock clock;

	FleetOverview(Fleet fleet, Heartbeats heartbeats, SlotPoller poller, SlotReader reader, RetainedHistory history,
			SettingsAudit settings, LaneWatch lanes, SlotHealthReadOuts readOuts, Clock clock) {
		this.lanes = lanes;
		this.readOuts = readOuts;
		this.fleet = fleet;
		this.heartbeats = heartbeats;
		this.poller = poller;
		this.reader = reader;
		this.history = history;
		this.settings = settings;
		this.clock = clock;
	}

	/**
	 * One page of the fleet.
	 * @param query which page, filtered how
	 * @return the page, with the whole fleet's counts
	 */
	public Overview page(Query query) {
		Instant now = this.clock.instant();
		List<Assessed> all = this.fleet.all().stream().map((target) -> assess(target, now)).toList();
		List<Assessed> matching = all.stream().filter(query::matches).sorted(WORST_FIRST).toList();
		int pages = Math.max(1, (matching.size() + query.size() - 1) / query.size());
		int from = Math.min(matching.size(), query.page() * query.size());
		int to = Math.min(matching.size(), from + query.size());
		List<TargetSummary> targets = matching.subList(from, to)
			.stream()
			.map((assessed) -> summary(assessed, query.history(), now))
			.toList();
		return new Overview(now, this.fleet.instance().id(), counts(all), query.page(), query.size(), matching.size(),
				pages, targets);
	}

	private Assessed assess(Target target, Instant now) {
		TargetView view = TargetView.of(this.heartbeats.of(target));
		SlotSnapshot snapshot = this.poller.snapshot(target.name()).orElse(null);
		List<SlotView> slots = (snapshot != null) ? this.reader.polled(target, snapshot) : List.of();
		List<List<Finding>> slotFindings = slots.stream()
			.map((slot) -> SlotFindings.of(slot, target.properties().lossWarning()))
			.toList();
		List<Finding> findings = new ArrayList<>(TargetFindings.of(target.properties(), view.heartbeat(), snapshot,
				this.lanes.overdue(target.name()), this.readOuts.raisedLimit(target.name()), now));
		slotFindings.forEach(findings::addAll);
		return new Assessed(target, view, snapshot, slots, slotFindings, findings, Finding.worst(findings));
	}

	private TargetSummary summary(Assessed assessed, boolean withHistory, Instant now) {
		TargetView view = assessed.view();
		TargetSummary.Heartbeat heartbeat = new TargetSummary.Heartbeat(view.enabled(), view.heartbeat().health(),
				view.heartbeat().reason(), view.mode(), view.interval(), view.heartbeat().lastSuccessAt(),
				view.heartbeat().owner(), view.heartbeat().walFloor());
		List<SlotSummary> slots = new ArrayList<>();
		for (int i = 0; i < assessed.slots().size(); i++) {
			slots.add(
					slot(assessed.target(), assessed.slots().get(i), assessed.slotFindings().get(i), withHistory, now));
		}
		SlotSnapshot snapshot = assessed.snapshot();
		return new TargetSummary(view.name(), assessed.severity(), Finding.texts(assessed.findings()), heartbeat,
				view.serverVersion(), view.lastFailoverAt(), (snapshot != null) ? snapshot.lastGoodAt() : null,
				(snapshot != null && snapshot.error() != null) ? snapshot.error().message() : null, slots,
				this.settings.of(view.name()).map(SettingsView::findings).orElse(List.of()));
	}

	private SlotSummary slot(Target target, SlotView view, List<Finding> findings, boolean withHistory, Instant now) {
		ReplicationSlot slot = view.slot();
		ConnectorStatus status = view.connector();
		SlotSummary.Connector connector = (status != null) ? new SlotSummary.Connector(status.connector(),
				status.state(), status.running(), status.summary(), Boolean.TRUE.equals(view.connectorDiscovered()))
				: null;
		RetainedHistory.Series series = withHistory ? this.history.of(target.name(), slot.slotName(), now).orElse(null)
				: null;
		return new SlotSummary(slot.slotName(), slot.slotType(), slot.database(), slot.plugin(), slot.active(),
				slot.walStatus(), slot.retainedWalBytes(), slot.safeWalSizeBytes(), view.insight().secondsToLoss(),
				view.insight().diagnosis(), view.missing(), connector, view.failover().failoverReady(),
				view.failover().failoverReason(), view.missing() ? null : slot.etag(), Finding.worst(findings),
				Finding.texts(findings), series, view.insight().budget(), view.insight().lineage(),
				this.readOuts.gapJournals(target.name()).get(slot.slotName()),
				this.readOuts.gapDeliveries(target.name()).get(slot.slotName()));
	}

	private static Overview.Counts counts(List<Assessed> all) {
		int targetsDown = 0;
		int targetsWarning = 0;
		int slots = 0;
		int slotsDown = 0;
		int slotsWarning = 0;
		for (Assessed assessed : all) {
			targetsDown += (assessed.severity() == Severity.DOWN) ? 1 : 0;
			targetsWarning += (assessed.severity() == Severity.WARNING) ? 1 : 0;
			slots += assessed.slots().size();
			for (List<Finding> findings : assessed.slotFindings()) {
				Severity severity = Finding.worst(findings);
				slotsDown += (severity == Severity.DOWN) ? 1 : 0;
				slotsWarning += (severity == Severity.WARNING) ? 1 : 0;
			}
		}
		return new Overview.Counts(all.size(), targetsDown, targetsWarning, slots, slotsDown, slotsWarning);
	}

	/**
	 * Which page of the overview, filtered how.
	 *
	 * @param page the page, from 0
	 * @param size targets per page
	 * @param search a part of a target's or slot's name, case ignored; {@code null} or
	 * empty for every target
	 * @param problemsOnly only targets that are not OK
	 * @param history whether slots carry their last hour of retained WAL
	 */
	public record Query(int page, int size, String search, boolean problemsOnly, boolean history) {

		boolean matches(Assessed assessed) {
			if (this.problemsOnly && assessed.severity() == Severity.OK) {
				return false;
			}
			if (this.search == null || this.search.isEmpty()) {
				return true;
			}
			String part = this.search.toLowerCase(Locale.ROOT);
			return assessed.target().name().toLowerCase(Locale.ROOT).contains(part) || assessed.slots()
				.stream()
				.anyMatch((slot) -> slot.slot().slotName().toLowerCase(Locale.ROOT).contains(part));
		}

	}

	private record Assessed(Target target, TargetView view, SlotSnapshot snapshot, List<SlotView> slots,
			List<List<Finding>> slotFindings, List<Finding> findings, Severity severity) {
	}

}
