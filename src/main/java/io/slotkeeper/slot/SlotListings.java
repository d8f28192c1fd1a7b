package io.slotkeeper.slot;

import java.util.List;

import tools.jackson.databind.json.JsonMapper;

import io.slotkeeper.fleet.Target;
import io.slotkeeper.replication.SlotFilter;
import io.slotkeeper.replication.SlotView;
import io.slotkeeper.support.RecentlyUsed;

/**
 * The slot listing as the API sends it. Read from the server and rendered as JSON once
 * for every caller that asked for the same listing (target, node, filters) while the
 * previous one was being read, each answer read after its caller asked (see
 * {@link Coalescing}); a listing equal to the last one of its kind (idle slots, nothing
 * concluded anew) is not rendered again.
 */
class SlotListings {

	// Listings remembered for their rendering: a handful per target viewed, a bounded
	// memory however many filters.
	private static final int REMEMBERED = 64;

	private final SlotReader reader;

	private final JsonMapper json;

	private final Coalescing<Key, byte[]> coalescing = new Coalescing<>();

	private final RecentlyUsed<Key, Rendered> rendered = new RecentlyUsed<>(REMEMBERED);

	SlotListings(SlotReader reader, JsonMapper json) {
		this.reader = reader;
		this.json = json;
	}

	/**
	 * The listing's JSON body.
	 * @param target the target
	 * @param node the node, {@code all}, or {@code null} for the primary
	 * @param filter the filters
	 * @return a JSON array of {@link SlotView}
	 */
	byte[] list(Target target, String node, SlotFilter filter) {
		Key key = new Key(target.name(), node, filter);
		return this.coalescing.get(key, () -> render(key, this.reader.list(target, node, filter)));
	}

	// Coalescing runs one listing of a key at a time: no two renderings of a key race.
	private byte[] render(Key key, List<SlotView> views) {
		Rendered last = this.rendered.get(key);
		if (last != null && last.views().equals(views)) {
			return last.json();
		}
		byte[] body = this.json.writeValueAsBytes(views);
		this.rendered.put(key, new Rendered(views, body));
		return body;
	}

	private record Key(String target, String node, SlotFilter filter) {
	}

	private record Rendered(List<SlotView> views, byte[] json) {
	}

}
