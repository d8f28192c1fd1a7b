package io.slotkeeper.config;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import jakarta.validation.Valid;
import jakarta.validation.constraints.NotBlank;
import jakarta.validation.constraints.NotNull;
import jakarta.validation.constraints.Pattern;
import org.hibernate.validator.constraints.time.DurationMax;
import org.hibernate.validator.constraints.time.DurationMin;

import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * The Kafka Connect connector that consumes a slot, made to resume after the slot is
 * recreated. It is reached one of two ways: through Kafka Connect's REST API ({@code url}
 * and {@code name}), or, when Strimzi manages it, through its {@code KafkaConnector}
 * resource ({@code strimzi}).
 *
 * @param url base URL of the Kafka Connect REST API, for example
 * {@code http://connect:8083}; not with {@code strimzi}
 * @param name the connector's name in Kafka Connect; with {@code strimzi}, its resource's
 * name (the default)
 * @param username basic-auth user, when the REST API asks for one
 * @param password basic-auth password; never logged or shown
 * @param timeout longest time one call to Kafka Connect may take, connecting included
 * @param offsets what to do with the connector's offsets after a recreate: {@code align}
 * (default: stop, set them to the new slot's position, resume), {@code reset} (stop,
 * delete them, resume) or {@code leave} (restart only)
 * @param runningTimeout how long to wait, after a recreate, for the connector and its
 * tasks to be RUNNING again; with {@code strimzi}, also how long each step may wait for
 * the operator to act on the resource
 * @param strimzi the connector's {@code KafkaConnector} resource, when Strimzi manages
 * it; absent for a connector reached through the REST API
 */
@Consistent
public record ConnectorProperties(
		@Pattern(regexp = "^https?://[^\\s?#]+$", message = "must be an http or https URL without query") String url,
		@NotBlank @Pattern(regexp = "^[A-Za-z0-9._-]{1,249}$",
				message = "must be letters, digits, dots, dashes and underscores") String name,
		String username, Secret password,
		@NotNull @DurationMin(millis = 1) @DurationMax(minutes = 5) @DefaultValue("10s") Duration timeout,
		@NotNull @DefaultValue("align") ConnectorOffsets offsets,
		@NotNull @DurationMin(millis = 1) @DurationMax(minutes = 10) @DefaultValue("60s") Duration runningTimeout,
		@Valid StrimziConnectorProperties strimzi) implements CrossFieldChecked {

	/**
	 * Takes the resource's name as the connector's when only the resource is named.
	 */
	public ConnectorProperties {
		if (name == null && strimzi != null) {
			name = strimzi.name();
		}
	}

	/**
	 * Whether the Strimzi operator manages it, so that it is changed through its
	 * resource.
	 * @return whether {@code strimzi} is set
	 */
	public boolean managedByStrimzi() {
		return this.strimzi != null;
	}

	@Override
	public List<Violation> violations() {
		List<Violation> violations = new ArrayList<>();
		if (this.strimzi == null && (this.url == null || this.url.isBlank())) {
			violations.add(new Violation("url", "must be set, or strimzi for a connector that Strimzi manages"));
		}
		if (this.strimzi != null && this.url != null) {
			violations.add(new Violation("url", "must be left out with strimzi: the connector is changed through its"
					+ " KafkaConnector resource, not the REST API (Strimzi reverts REST changes)"));
		}
		if (this.strimzi != null && this.strimzi.name() != null && !this.strimzi.name().equals(this.name)) {
			violations.add(new Violation("name", "must be the KafkaConnector's name (" + this.strimzi.name()
					+ ") or left out: Strimzi names the connector after its resource"));
		}
		if (this.strimzi != null && (this.username != null || this.password != null)) {
			violations.add(new Violation("username",
					"must be left out with strimzi: the Kubernetes API is called" + " with the pod's service account"));
		}
		return violations;
	}

}
