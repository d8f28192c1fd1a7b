package io.slotkeeper.config;

import java.lang.reflect.ParameterizedType;
import java.lang.reflect.RecordComponent;
import java.lang.reflect.Type;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import org.springframework.boot.context.properties.ConfigurationPropertiesBindHandlerAdvisor;
import org.springframework.boot.context.properties.bind.AbstractBindHandler;
import org.springframework.boot.context.properties.bind.BindContext;
import org.springframework.boot.context.properties.bind.BindHandler;
import org.springframework.boot.context.properties.bind.Bindable;
import org.springframework.boot.context.properties.source.ConfigurationProperty;
import org.springframework.boot.context.properties.source.ConfigurationPropertyName;
import org.springframework.boot.context.properties.source.ConfigurationPropertyName.Form;
import org.springframework.boot.context.properties.source.ConfigurationPropertySource;
import org.springframework.boot.context.properties.source.IterableConfigurationPropertySource;
import org.springframework.core.env.SystemEnvironmentPropertySource;

/**
 * Refuses any {@code slotkeeper.*} key that no configuration record declares, however
 * deep.
 * <p>
 * It is the one such check: Spring's {@code ignoreUnknownFields = false} does not look
 * inside list elements, so a typo such as
 * {@code slotkeeper.targets[0].heartbeat.intervall} would be silently ignored. This check
 * walks every key under {@code slotkeeper} down the records' components once binding has
 * finished. A key from environment variables may spell a dashed property with underscores
 * ({@code SLOTS_POLL_INTERVAL} for {@code slots-poll-interval}), which Spring binds:
 * there, consecutive words may together name one component; anywhere else they may not,
 * since Spring would not bind them. Then it refuses URLs that carry credentials
 * ({@link CredentialsInUrls}).
 */
public class StrictBindHandlerAdvisor implements ConfigurationPropertiesBindHandlerAdvisor {

	private static final ConfigurationPropertyName ROOT = ConfigurationPropertyName.of("slotkeeper");

	@Override
	public BindHandler apply(BindHandler bindHandler) {
		return new AbstractBindHandler(bindHandler) {

			@Override
			public void onFinish(ConfigurationPropertyName name, Bindable<?> target, BindContext context, Object result)
					throws Exception {
				super.onFinish(name, target, context, result);
				if (context.getDepth() == 0 && ROOT.equals(name)) {
					refuseUnknown(context.getSources());
					if (result instanceof SlotKeeperProperties properties) {
						CredentialsInUrls.refuse(properties);
					}
				}
			}

		};
	}

	private static void refuseUnknown(Iterable<ConfigurationPropertySource> sources) {
		List<String> unknown = new ArrayList<>();
		for (ConfigurationPropertySource source : sources) {
			if (source instanceof IterableConfigurationPropertySource iterable) {
				boolean environment = source.getUnderlyingSource() instanceof SystemEnvironmentPropertySource;
				iterable.filter(ROOT::isAncestorOf).forEach((name) -> {
					if (!isKnown(name, environment)) {
						ConfigurationProperty property = iterable.getConfigurationProperty(name);
						Object origin = (property != null) ? property.getOrigin() : null;
						unknown.add(name + ((origin != null) ? " (from " + origin + ")" : ""));
					}
				});
			}
		}
		if (!unknown.isEmpty()) {
			throw new IllegalStateException("Unknown configuration properties: " + String.join(", ", unknown)
					+ ". Check their spelling against the configuration reference in docs/configuration.md.");
		}
	}

	/**
	 * Whether a configuration record declares a key.
	 * @param name the key, under {@code slotkeeper}
	 * @param wordsMayJoin whether consecutive elements may together name one component,
	 * as in environment variables
	 * @return whether some component path matches it
	 */
	static boolean isKnown(ConfigurationPropertyName name, boolean wordsMayJoin) {
		return isKnown(SlotKeeperProperties.class, name, 1, wordsMayJoin);
	}

	private static boolean isKnown(Type type, ConfigurationPropertyName name, int from, boolean wordsMayJoin) {
		if (from >= name.getNumberOfElements()) {
			return true;
		}
		Class<?> raw = raw(type);
		if (Map.class.isAssignableFrom(raw)) {
			return true;
		}
		if (Collection.class.isAssignableFrom(raw)) {
			return name.isNumericIndex(from)
					&& isKnown(((ParameterizedType) type).getActualTypeArguments()[0], name, from + 1, wordsMayJoin);
		}
		if (!raw.isRecord()) {
			return false;
		}
		StringBuilder words = new StringBuilder();
		int last = wordsMayJoin ? name.getNumberOfElements() : from + 1;
		for (int to = from; to < last && !name.isNumericIndex(to); to++) {
			words.append(name.getElement(to, Form.UNIFORM));
			Optional<RecordComponent> component = component(raw, words.toString());
			if (component.isPresent() && isKnown(component.get().getGenericType(), name, to + 1, wordsMayJoin)) {
				return true;
			}
		}
		return false;
	}

	private static Optional<RecordComponent> component(Class<?> type, String uniformName) {
		for (RecordComponent component : type.getRecordComponents()) {
			if (component.getName().toLowerCase().equals(uniformName)) {
				return Optional.of(component);
			}
		}
		return Optional.empty();
	}

	private static Class<?> raw(Type type) {
		if (type instanceof ParameterizedType parameterized) {
			return (Class<?>) parameterized.getRawType();
		}
		return (Class<?>) type;
	}

}
