package io.slotkeeper.overview;

import java.time.Clock;

import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

import io.slotkeeper.fleet.Fleet;
import io.slotkeeper.heartbeat.Heartbeats;
import io.slotkeeper.lanes.LaneWatch;
import io.slotkeeper.slot.SlotReader;
import io.slotkeeper.watching.SlotHealthReadOuts;
import io.slotkeeper.watching.SlotPoller;
import io.slotkeeper.watching.SlotWatch;

/**
 * Wires the overview.
 */
@Configuration(proxyBeanMethods = false)
class OverviewConfiguration {

	@Bean
	FleetOverview fleetOverview(Fleet fleet, Heartbeats heartbeats, SlotPoller poller, SlotReader reader,
			SlotWatch watch, LaneWatch lanes, SlotHealthReadOuts readOuts, Clock clock) {
		return new FleetOverview(fleet, heartbeats, poller, reader, watch.history(), watch.settings(), lanes, readOuts,
				clock);
	}

}
