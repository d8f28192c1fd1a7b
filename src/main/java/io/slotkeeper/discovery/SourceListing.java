package io.slotkeeper.discovery;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.slotkeeper.connect.ConnectorSource;
import io.slotkeeper.lanes.RepeatingTask;

/**
 * One source's schedule and last listing.
 */
final class SourceListing implements RepeatingTask {

	private static final Logger logger = LoggerFactory.getLogger(SourceListing.class);

	private final ConnectorSource source;

	private final Duration interval;

	private final Clock clock;

	private final Runnable listed;

	private volatile ListingState state = new ListingState(null, null, null, List.of());

	SourceListing(ConnectorSource source, Duration interval, Clock clock, Runnable listed) {
		this.source = source;
		this.interval = interval;
		this.clock = clock;
		this.listed = listed;
	}

	@Override
	public String about() {
		return this.source.describe();
	}

	@Override
	public Duration firstDelay() {
		return Duration.ZERO;
	}

	@Override
	public Duration run() {
		ConnectorSource.Listing listing = this.source.list();
		Instant now = this.clock.instant();
		ListingState last = this.state;
		if (listing.ok()) {
			this.state = new ListingState(now, now, null, listing.connectors());
		}
		else {
			if (last.error() == null) {
				logger.warn("Listing the connectors of {} failed: {}; its {} connectors found before are kept",
						this.source.describe(), listing.error(), last.connectors().size());
			}
			this.state = new ListingState(last.listedAt(), now, listing.error(), last.connectors());
		}
		this.listed.run();
		return this.interval;
	}

	@Override
	public Duration escaped(Throwable failure) {
		ListingState last = this.state;
		this.state = new ListingState(last.listedAt(), this.clock.instant(), String.valueOf(failure),
				last.connectors());
		return this.interval;
	}

	ConnectorSource source() {
		return this.source;
	}

	ListingState state() {
		return this.state;
	}

}
