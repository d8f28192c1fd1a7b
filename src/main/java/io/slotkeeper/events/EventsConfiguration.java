package io.slotkeeper.events;

import java.nio.file.Files;
import java.time.Clock;

import io.micrometer.core.instrument.MeterRegistry;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

import io.slotkeeper.audit.Auditor;
import io.slotkeeper.config.EventsProperties;
import io.slotkeeper.config.SlotKeeperProperties;
import io.slotkeeper.config.StrimziProperties;
import io.slotkeeper.fleet.Fleet;
import io.slotkeeper.kubernetes.KubernetesApi;

/**
 * Kubernetes Events, when slot-keeper runs where it can write them: enabled, with the
 * pod's service-account token; otherwise off, said once.
 */
@Configuration(proxyBeanMethods = false)
class EventsConfiguration {

	private static final Logger logger = LoggerFactory.getLogger(EventsConfiguration.class);

	@Bean(destroyMethod = "close")
	KubernetesEvents kubernetesEvents(SlotKeeperProperties properties, Fleet fleet, Auditor auditor,
			MeterRegistry registry, Clock clock) {
		EventsProperties settings = properties.events();
		StrimziProperties api = properties.strimzi();
		if (!settings.enabled()) {
			logger.info("Kubernetes Events are off: slotkeeper.events.enabled is false");
			return KubernetesEvents.OFF;
		}
		if (!Files.isReadable(api.serviceAccountTokenFile())) {
			logger.info("Kubernetes Events are off: no service-account token at {} (not in a pod, or"
					+ " automountServiceAccountToken off)", api.serviceAccountTokenFile());
			return KubernetesEvents.OFF;
		}
		if (!settings.podKnown()) {
			logger.info("Kubernetes Events are written on KafkaConnector resources only: slotkeeper.events.pod-name"
					+ " and pod-namespace are not set (the chart sets them from the downward API)");
		}
		EventRecorder recorder = new EventRecorder(
				new KubernetesApi(api.apiServer(), api.serviceAccountTokenFile(), api.caFile(), api.timeout()),
				settings.podKnown() ? settings.podName() : fleet.instance().id(), settings.queueCapacity(), registry,
				clock);
		auditor.listen(new HappeningEvents(fleet, settings, recorder));
		return new KubernetesEvents(recorder);
	}

}
