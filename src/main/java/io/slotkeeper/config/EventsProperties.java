package io.slotkeeper.config;

import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.NotNull;
import jakarta.validation.constraints.Pattern;

import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * Kubernetes Events ({@code events.k8s.io/v1}) for what slot-keeper does and finds: on a
 * connector's {@code KafkaConnector} where it is one, else on slot-keeper's own Pod, so
 * that {@code oc describe} and {@code oc get events} tell the story. Written through the
 * API server of {@code strimzi.api-server} with the pod's service account, best effort: a
 * queue of its own, never waited for by a repair; without a service-account token (not in
 * a pod) or without the Role's {@code create} on events, they are off and the log says so
 * once.
 *
 * @param enabled whether events are written (default {@code true})
 * @param podName slot-keeper's Pod, the subject of events that concern no
 * {@code KafkaConnector} (the chart sets it from the downward API); empty outside a pod
 * @param podNamespace that Pod's namespace
 * @param podUid that Pod's {@code metadata.uid}, so that {@code oc describe pod} finds
 * them
 * @param queueCapacity events waiting for the API server at most; past it an event is
 * dropped and counted (default 256)
 */
public record EventsProperties(@DefaultValue("true") boolean enabled,
		@NotNull @DefaultValue("") @Pattern(regexp = "^([a-z0-9]([-a-z0-9.]{0,251}[a-z0-9])?)?$",
				message = "must be a Pod's name (a DNS subdomain) or empty") String podName,
		@NotNull @DefaultValue("") @Pattern(regexp = "^([a-z0-9]([-a-z0-9]{0,61}[a-z0-9])?)?$",
				message = "must be a namespace's name (a DNS label) or empty") String podNamespace,
		@NotNull @DefaultValue("") @Pattern(regexp = "^[0-9a-fA-F-]{0,36}$",
				message = "must be a Pod's metadata.uid or empty") String podUid,
		@Min(1) @Max(10_000) @DefaultValue("256") int queueCapacity) {

	/**
	 * Whether the Pod is known, so that events about no {@code KafkaConnector} have a
	 * subject.
	 * @return whether its name and namespace are set
	 */
	public boolean podKnown() {
		return !this.podName.isEmpty() && !this.podNamespace.isEmpty();
	}

}
