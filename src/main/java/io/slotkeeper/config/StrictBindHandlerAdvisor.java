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

/**
 * Refuses any {@code slotkeeper.*} key that no configuration record declares, however deep.
 * <p>
 * {@code ignoreUnknownFields = false} alone does not look inside list elements, so a typo such as
 * {@code slotkeeper.targets[0].heartbeat.intervall} would be silently ignored. This check walks every key under
 * {@code slotkeeper} down the records' components once binding has finished.
 */
public class StrictBindHandlerAdvisor implements ConfigurationPropertiesBindHandlerAdvisor {

	private static final ConfigurationPropertyName ROOT = ConfigurationPropertyName.of("slotkeeper");

	@Override
	public BindHandler apply(BindHandler bindHandler) {
		return new AbstractBindHandler(bindHandler) {

			@Override
			public void onFinish(ConfigurationPropertyName name, Bindable<?> target, BindContext context,
					Object result) throws Exception {
				super.onFinish(name, target, context, result);
				if (context.getDepth() == 0 && ROOT.equals(name)) {
					refuseUnknown(context.getSources());
				}
			}

		};
	}

	private static void refuseUnknown(Iterable<ConfigurationPropertySource> sources) {
		List<String> unknown = new ArrayList<>();
		for (ConfigurationPropertySource source : sources) {
			if (source instanceof IterableConfigurationPropertySource iterable) {
				iterable.filter(ROOT::isAncestorOf).forEach((name) -> {
					if (!isKnown(name)) {
						ConfigurationProperty property = iterable.getConfigurationProperty(name);
						Object origin = (property != null) ? property.getOrigin() : null;
						unknown.add(name + ((origin != null) ? " (from " + origin + ")" : ""));
					}
				});
			}
		}
		if (!unknown.isEmpty()) {
			throw new IllegalStateException("Unknown configuration properties: " + String.join(", ", unknown)
					+ ". Check their spelling against the configuration reference in README.md.");
		}
	}

	static boolean isKnown(ConfigurationPropertyName name) {
		Type type = SlotKeeperProperties.class;
		for (int i = 1; i < name.getNumberOfElements(); i++) {
			Class<?> raw = raw(type);
			if (Map.class.isAssignableFrom(raw)) {
				return true;
			}
			if (Collection.class.isAssignableFrom(raw)) {
				if (!name.isNumericIndex(i)) {
					return false;
				}
				type = ((ParameterizedType) type).getActualTypeArguments()[0];
				continue;
			}
			Optional<RecordComponent> component = component(raw, name.getElement(i, Form.UNIFORM));
			if (component.isEmpty()) {
				return false;
			}
			type = component.get().getGenericType();
		}
		return true;
	}

	private static Optional<RecordComponent> component(Class<?> type, String uniformName) {
		if (!type.isRecord()) {
			return Optional.empty();
		}
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
