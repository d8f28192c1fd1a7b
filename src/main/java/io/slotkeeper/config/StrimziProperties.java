package io.slotkeeper.config;

import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import jakarta.validation.constraints.NotNull;
import jakarta.validation.constraints.Pattern;
import org.hibernate.validator.constraints.time.DurationMax;
import org.hibernate.validator.constraints.time.DurationMin;

import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * How slot-keeper reaches the {@code KafkaConnector} resources of connectors configured
 * with {@code connector.strimzi}: the Kubernetes API server with the pod's service
 * account, which needs a Role in each connector's namespace ({@code kafkaconnectors} get,
 * list, watch, patch; {@code configmaps} get, create, patch, delete: the chart's
 * {@code connectors.strimzi.namespaces} binds it).
 *
 * @param apiServer the Kubernetes API server; in a pod,
 * {@code https://kubernetes.default.svc}
 * @param serviceAccountTokenFile the pod's service-account token, read at every request
 * (projected tokens rotate)
 * @param caFile the CA that signs the API server's certificate; used when it exists and
 * the API server is HTTPS
 * @param timeout how long one request to the API server may take, connecting included
 * @param apiVersion the {@code kafka.strimzi.io} version to use, {@code v1} (Strimzi
 * 0.49+) or {@code v1beta2} (up to 0.51); empty asks the API server which it serves and
 * prefers {@code v1}
 * @param statusFrom where a connector's state is read: {@code resource} (the
 * {@code KafkaConnector}'s status, as fresh as the operator's last reconcile) or
 * {@code worker} (Kafka Connect's REST status at the {@code KafkaConnect}'s
 * {@code status.url}, read only; the resource's status while the worker cannot be read)
 */
@Consistent
public record StrimziProperties(@NotNull @DefaultValue("https://kubernetes.default.svc") URI apiServer,
		@NotNull @DefaultValue("/var/run/secrets/kubernetes.io/serviceaccount/token") Path serviceAccountTokenFile,
		@NotNull @DefaultValue("/var/run/secrets/kubernetes.io/serviceaccount/ca.crt") Path caFile,
		@NotNull @DurationMin(millis = 100) @DurationMax(minutes = 1) @DefaultValue("5s") Duration timeout,
		@NotNull @DefaultValue("") @Pattern(regexp = "^(v1|v1beta2)?$",
				message = "must be v1, v1beta2 or empty (asked of the API server)") String apiVersion,
		@NotNull @DefaultValue("resource") StrimziStatusFrom statusFrom) implements CrossFieldChecked {

	@Override
	public List<Violation> violations() {
		List<Violation> violations = new ArrayList<>();
		String scheme = this.apiServer.getScheme();
		if (!"https".equals(scheme) && !"http".equals(scheme)) {
			violations.add(new Violation("api-server", "must be an http or https URL"));
		}
		return violations;
	}

}
