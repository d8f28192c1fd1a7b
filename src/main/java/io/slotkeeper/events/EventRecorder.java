package io.slotkeeper.events;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.slotkeeper.kubernetes.KubernetesApi;
import io.slotkeeper.support.DaemonThreads;

/**
 * Writes {@link KubernetesEvent}s to the API server from a queue of its own, as
 * Kubernetes' own event recorders do: the same thing about the same object again within
 * {@value #SERIES_MINUTES} minutes adds to its event's {@code series} (count and last
 * time, patched at most every {@value #PATCH_SECONDS} s) instead of a new event, so a
 * slot that keeps failing makes one event, not a storm. {@link #record} never waits: a
 * full queue drops the event, and an API server that hangs or refuses holds only this
 * recorder's thread. Counted in
 * {@code slotkeeper_kubernetes_events_total{outcome=written|aggregated|dropped|failed|off}};
 * a namespace whose events the service account may not create is off, said once.
 */
public final class EventRecorder implements AutoCloseable {

	/** {@code reportingController} of every event. */
	public static final String CONTROLLER = "slotkeeper.io/slot-keeper";

	static final int SERIES_MINUTES = 6;

	static final int PATCH_SECONDS = 30;

	private static final Duration SERIES_WINDOW = Duration.ofMinutes(SERIES_MINUTES);

	private static final Duration PATCH_EVERY = Duration.ofSeconds(PATCH_SECONDS);

	private static final Duration FAILURE_SAID_EVERY = Duration.ofMinutes(5);

	private static final Duration READ_AGAIN_AFTER = Duration.ofMinutes(10);

	private static final DateTimeFormatter MICRO_TIME = DateTimeFormatter.ofPattern("yyyy-MM-dd'T'HH:mm:ss.SSSSSS'Z'")
		.withZone(ZoneOffset.UTC);

	private static final Logger logger = LoggerFactory.getLogger(EventRecorder.class);

	private final KubernetesApi api;

	private final String instance;

	private final Clock clock;

	private final BlockingQueue<Occurrence> queue;

	// Read and written by the sender thread alone.
	private final Map<Key, Series> series = new HashMap<>();

	private final Set<String> offIn = ConcurrentHashMap.newKeySet();

	private final Map<String, Counter> outcomes = new LinkedHashMap<>();

	private final Thread sender;

	private volatile String offEverywhere;

	private volatile boolean running = true;

	private volatile boolean idle = true;

	private Instant failureSaid = Instant.MIN;

	private long lastName;

	// Read and written by the sender thread alone.
	private final Map<KubernetesEvent.Subject, Read> read = new HashMap<>();

	/**
	 * Creates the recorder and starts its thread.
	 * @param api the API server, with the pod's service account
	 * @param instance the {@code reportingInstance}: the Pod's name, or the instance's
	 * @param capacity events waiting at most
	 * @param registry where the counts go
	 * @param clock the clock
	 */
	public EventRecorder(KubernetesApi api, String instance, int capacity, MeterRegistry registry, Clock clock) {
		this.api = api;
		this.instance = instance;
		this.clock = clock;
		this.queue = new ArrayBlockingQueue<>(capacity);
		for (String outcome : List.of("written", "aggregated", "dropped", "failed", "off")) {
			this.outcomes.put(outcome,
					Counter.builder("slotkeeper.kubernetes.events")
						.description("Kubernetes Events slot-keeper wrote, added to a series, dropped (queue full),"
								+ " failed to write, or did not write (off: not allowed in the namespace)")
						.tag("outcome", outcome)
						.register(registry));
		}
		this.sender = DaemonThreads.named("kubernetes-events").newThread(this::run);
		this.sender.start();
	}

	/**
	 * Queues an event; never waits.
	 * @param event the event
	 */
	public void record(KubernetesEvent event) {
		if (off(event)) {
			count("off");
			return;
		}
		if (this.queue.offer(new Occurrence(event, this.clock.instant()))) {
			this.idle = false;
		}
		else {
			count("dropped");
		}
	}

	private boolean off(KubernetesEvent event) {
		return this.offEverywhere != null || this.offIn.contains(event.regarding().namespace());
	}

	/**
	 * Whether nothing waits to be written or patched.
	 * @return whether the queue is empty and every series patched
	 */
	boolean idle() {
		return this.idle && this.queue.isEmpty();
	}

	private void run() {
		while (this.running) {
			try {
				Occurrence next = this.queue.poll(200, TimeUnit.MILLISECONDS);
				if (next != null) {
					send(next);
				}
				patchDue();
				// Idle once a round finds nothing left: an event taken from
				// the queue and still being written keeps it busy.
				this.idle = this.queue.isEmpty()
						&& this.series.values().stream().allMatch((each) -> each.patched == each.count);
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
				return;
			}
			catch (RuntimeException ex) {
				logger.warn("Writing a Kubernetes Event failed: {}", ex.toString());
			}
		}
	}

	private void send(Occurrence occurrence) {
		KubernetesEvent event = occurrence.event();
		if (off(event)) {
			count("off");
			return;
		}
		Key key = new Key(event.regarding(), event.reason(), event.action(), event.type());
		Series known = this.series.get(key);
		if (known != null && !occurrence.at().isAfter(known.last.plus(SERIES_WINDOW))) {
			known.count++;
			known.last = occurrence.at();
			count("aggregated");
			return;
		}
		String name = name(event.regarding().name(), occurrence.at());
		KubernetesApi.Answer answer = this.api.exchange("POST", path(event.regarding().namespace(), null),
				"application/json", body(event, complete(event.regarding()), name, occurrence.at()));
		if (answered(answer, event.regarding().namespace())) {
			this.series.put(key, new Series(event.regarding().namespace(), name, occurrence.at()));
			count("written");
		}
	}

	private void patchDue() {
		Instant now = this.clock.instant();
		this.series.values()
			.removeIf((each) -> each.patched == each.count && now.isAfter(each.last.plus(SERIES_WINDOW)));
		for (Series each : this.series.values()) {
			if (each.count > each.patched && !now.isBefore(each.patchedAt.plus(PATCH_EVERY))) {
				int count = each.count;
				each.patchedAt = now;
				KubernetesApi.Answer answer = this.api.exchange("PATCH", path(each.namespace, each.name),
						"application/merge-patch+json",
						Map.of("series", Map.of("count", count, "lastObservedTime", MICRO_TIME.format(each.last))));
				if (answered(answer, each.namespace)) {
					each.patched = count;
				}
			}
		}
	}

	// Whether it was written; what went wrong otherwise is counted, and said once where
	// it turns events off.
	private boolean answered(KubernetesApi.Answer answer, String namespace) {
		if (answer.ok()) {
			return true;
		}
		Integer status = answer.status();
		if (status == null && !answer.unreachable()) {
			this.offEverywhere = answer.error();
			logger.warn("Kubernetes Events are off: {}", answer.error());
			count("off");
		}
		else if (status != null && status == 403 && this.offIn.add(namespace)) {
			logger.warn(
					"Kubernetes Events are off in namespace {}: {}; slot-keeper's service account needs create"
							+ " and patch on events.k8s.io events there (the chart's Role grants them)",
					namespace, answer.error());
			count("off");
		}
		else {
			count("failed");
			Instant now = this.clock.instant();
			if (now.isAfter(this.failureSaid.plus(FAILURE_SAID_EVERY))) {
				this.failureSaid = now;
				logger.warn("A Kubernetes Event could not be written (said at most every {} min): {}",
						FAILURE_SAID_EVERY.toMinutes(), answer.error());
			}
		}
		return false;
	}

	private Map<String, Object> body(KubernetesEvent event, KubernetesEvent.Subject subject, String name, Instant at) {
		Map<String, Object> regarding = new LinkedHashMap<>();
		regarding.put("apiVersion", subject.apiVersion());
		regarding.put("kind", subject.kind());
		regarding.put("namespace", subject.namespace());
		regarding.put("name", subject.name());
		if (!subject.uid().isEmpty()) {
			regarding.put("uid", subject.uid());
		}
		Map<String, Object> body = new LinkedHashMap<>();
		body.put("apiVersion", "events.k8s.io/v1");
		body.put("kind", "Event");
		body.put("metadata", Map.of("name", name, "namespace", subject.namespace()));
		body.put("eventTime", MICRO_TIME.format(at));
		body.put("reportingController", CONTROLLER);
		body.put("reportingInstance", this.instance);
		body.put("action", event.action());
		body.put("reason", event.reason());
		body.put("type", event.type());
		body.put("note", event.note());
		body.put("regarding", regarding);
		return body;
	}

	// A KafkaConnector's uid, which oc describe matches events on, and the version it is
	// served at, read from the resource itself (on this thread: the caller never waits);
	// kept a while, as a resource is seldom made anew. Unread, the event is still
	// written.
	private KubernetesEvent.Subject complete(KubernetesEvent.Subject subject) {
		if (!subject.uid().isEmpty() || !"KafkaConnector".equals(subject.kind())) {
			return subject;
		}
		Read known = this.read.get(subject);
		if (known != null && this.clock.instant().isBefore(known.at().plus(READ_AGAIN_AFTER))) {
			return known.subject();
		}
		for (String version : List.of("v1", "v1beta2")) {
			KubernetesApi.Answer answer = this.api.exchange("GET", "/apis/kafka.strimzi.io/" + version + "/namespaces/"
					+ subject.namespace() + "/kafkaconnectors/" + subject.name(), null, null);
			Object uid = (answer.object().get("metadata") instanceof Map<?, ?> metadata) ? metadata.get("uid") : null;
			if (answer.ok() && uid != null) {
				KubernetesEvent.Subject read = new KubernetesEvent.Subject("kafka.strimzi.io/" + version,
						subject.kind(), subject.namespace(), subject.name(), String.valueOf(uid));
				this.read.put(subject, new Read(read, this.clock.instant()));
				return read;
			}
			if (answer.status() == null || answer.status() != 404) {
				break;
			}
		}
		return subject;
	}

	// As Kubernetes names its own: the object's name and the time in hexadecimal
	// nanoseconds, within a name's 253 characters; one later than the last, so that two
	// events of one moment (a loss and its recreate) never share a name.
	private String name(String regarding, Instant at) {
		this.lastName = Math.max(this.lastName + 1, at.getEpochSecond() * 1_000_000_000L + at.getNano());
		String suffix = "." + Long.toHexString(this.lastName);
		return regarding.substring(0, Math.min(regarding.length(), 253 - suffix.length())) + suffix;
	}

	private static String path(String namespace, String name) {
		return "/apis/events.k8s.io/v1/namespaces/" + namespace + "/events" + ((name != null) ? "/" + name : "");
	}

	private void count(String outcome) {
		this.outcomes.get(outcome).increment();
	}

	@Override
	public void close() {
		this.running = false;
		this.sender.interrupt();
	}

	private record Occurrence(KubernetesEvent event, Instant at) {
	}

	private record Read(KubernetesEvent.Subject subject, Instant at) {
	}

	// What makes two occurrences the same event, as for Kubernetes' recorders: the
	// object, the reason, the action and the type; the first note stands.
	private record Key(KubernetesEvent.Subject regarding, String reason, String action, String type) {
	}

	private static final class Series {

		private final String namespace;

		private final String name;

		private int count = 1;

		private int patched = 1;

		private Instant last;

		private Instant patchedAt = Instant.MIN;

		Series(String namespace, String name, Instant first) {
			this.namespace = namespace;
			this.name = name;
			this.last = first;
		}

	}

}
