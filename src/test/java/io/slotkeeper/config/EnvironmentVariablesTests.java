package io.slotkeeper.config;

import java.lang.reflect.ParameterizedType;
import java.lang.reflect.RecordComponent;
import java.lang.reflect.Type;
import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.autoconfigure.context.ConfigurationPropertiesAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.boot.validation.autoconfigure.ValidationAutoConfiguration;
import org.springframework.core.env.StandardEnvironment;
import org.springframework.core.env.SystemEnvironmentPropertySource;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Every multi-word property of the configuration, found by walking the records, set
 * through an environment variable in both forms Spring binds: the dashed name with
 * underscores ({@code SLOTS_POLL_INTERVAL}) and without dashes
 * ({@code SLOTSPOLLINTERVAL}). Each must start and bind its value; a misspelt variable
 * must still stop start-up.
 */
class EnvironmentVariablesTests {

	private static final Map<String, Object> REQUIRED = Map.ofEntries(Map.entry("SLOTKEEPER_TARGETS_0_NAME", "orders"),
			Map.entry("SLOTKEEPER_TARGETS_0_URL", "jdbc:postgresql://db:5432/orders"),
			Map.entry("SLOTKEEPER_TARGETS_0_SLOTS_0_NAME", "debezium"),
			Map.entry("SLOTKEEPER_TARGETS_0_REPLICAS_0_NAME", "r1"),
			Map.entry("SLOTKEEPER_TARGETS_0_REPLICAS_0_URL", "jdbc:postgresql://r1:5432/orders"),
			Map.entry("SLOTKEEPER_TARGETS_0_SLOTS_0_CONNECTOR_URL", "http://connect:8083"),
			Map.entry("SLOTKEEPER_TARGETS_0_SLOTS_0_CONNECTOR_NAME", "orders-debezium"),
			Map.entry("SLOTKEEPER_TARGETS_0_SLOTS_0_ON_OUTAGE_RAISE_KEEP_SIZE_TO", "20GB"),
			Map.entry("SLOTKEEPER_SERVERS_0_NAME", "rbac-db"),
			Map.entry("SLOTKEEPER_SERVERS_0_URL", "jdbc:postgresql://rbac-db:5432/postgres"),
			Map.entry("SLOTKEEPER_SERVERS_0_OVERRIDES_0_NAME", "orders"),
			Map.entry("SLOTKEEPER_SERVERS_0_OVERRIDES_0_SLOTS_0_NAME", "debezium"),
			Map.entry("SLOTKEEPER_SERVERS_0_OVERRIDES_0_SLOTS_0_CONNECTOR_URL", "http://connect:8083"),
			Map.entry("SLOTKEEPER_SERVERS_0_OVERRIDES_0_SLOTS_0_CONNECTOR_NAME", "orders-debezium"),
			Map.entry("SLOTKEEPER_SERVERS_0_OVERRIDES_0_SLOTS_0_ON_OUTAGE_RAISE_KEEP_SIZE_TO", "20GB"));

	static Stream<Arguments> multiWordProperties() {
		List<Arguments> properties = new ArrayList<>();
		walk(SlotKeeperProperties.class, new ArrayList<>(), new ArrayList<>(), properties);
		assertThat(properties).as("the walk found the configuration's multi-word properties").hasSizeGreaterThan(8);
		return properties.stream();
	}

	// Collects, for each leaf whose name has several words, its words per level and the
	// components to read it back.
	private static void walk(Class<?> record, List<List<String>> path, List<RecordComponent> components,
			List<Arguments> found) {
		for (RecordComponent component : record.getRecordComponents()) {
			List<List<String>> here = new ArrayList<>(path);
			here.add(words(component.getName()));
			List<RecordComponent> chain = new ArrayList<>(components);
			chain.add(component);
			Class<?> type = component.getType();
			if (Collection.class.isAssignableFrom(type)) {
				Type element = ((ParameterizedType) component.getGenericType()).getActualTypeArguments()[0];
				here.add(List.of("0"));
				if (element instanceof Class<?> elementClass && elementClass.isRecord()) {
					walk(elementClass, here, chain, found);
				}
			}
			else if (type.isRecord()) {
				walk(type, here, chain, found);
			}
			else if (here.get(here.size() - 1).size() > 1 && sample(type) != null) {
				found.add(Arguments.of(dashed(here), here, chain));
			}
		}
	}

	private static List<String> words(String camel) {
		return List.of(camel.replaceAll("([a-z0-9])([A-Z])", "$1-$2").toLowerCase().split("-"));
	}

	private static String dashed(List<List<String>> path) {
		return "slotkeeper." + String.join(".", path.stream().map((words) -> String.join("-", words)).toList());
	}

	private static String sample(Class<?> type) {
		if (type == Duration.class) {
			return "7s";
		}
		if (type == URI.class) {
			return "https://api.cluster.example:6443";
		}
		if (type == Path.class) {
			return "/etc/slot-keeper/seven";
		}
		if (type == boolean.class) {
			return "true";
		}
		if (type == int.class) {
			return "7";
		}
		if (type.isEnum()) {
			Object[] constants = type.getEnumConstants();
			return constants[constants.length - 1].toString().toLowerCase();
		}
		return null;
	}

	private static Object expected(Class<?> type) {
		if (type == Duration.class) {
			return Duration.ofSeconds(7);
		}
		if (type == URI.class) {
			return URI.create("https://api.cluster.example:6443");
		}
		if (type == Path.class) {
			return Path.of("/etc/slot-keeper/seven");
		}
		if (type == boolean.class) {
			return true;
		}
		if (type == int.class) {
			return 7;
		}
		Object[] constants = type.getEnumConstants();
		return constants[constants.length - 1];
	}

	@ParameterizedTest(name = "{0}")
	@MethodSource("multiWordProperties")
	void bindsFromTheUnderscoreForm(String property, List<List<String>> path, List<RecordComponent> chain)
			throws Exception {
		assertBinds(variable(path, "_"), chain);
	}

	@ParameterizedTest(name = "{0}")
	@MethodSource("multiWordProperties")
	void bindsFromTheFormWithoutDashes(String property, List<List<String>> path, List<RecordComponent> chain)
			throws Exception {
		assertBinds(variable(path, ""), chain);
	}

	@Test
	void aSizeBindsFromTheUnderscoreForm() {
		run(Map.of()).run((context) -> assertThat(context.getBean(SlotKeeperProperties.class)
			.targets()
			.get(0)
			.slots()
			.get(0)
			.onOutage()
			.raiseKeepSizeToMegabytes()).isEqualTo(20480));
	}

	@ParameterizedTest
	@ValueSource(strings = { "SLOTKEEPER_TARGETS_0_SLOTS_POLL_INTERVALL", "SLOTKEEPER_TARGETS_0_SLOTSPOLL_INTERVALS",
			"SLOTKEEPER_TARGETS_0_HEARTBEAT_INTERVAL_SECONDS", "SLOTKEEPER_TARGETS_0_POLL_INTERVAL",
			"SLOTKEEPER_TARGETS_0_SLOTS_0_ON_LOST_NOW", "SLOTKEEPER_TARGETS_0_CONNECTION_STATEMENT" })
	void aMisspeltVariableStillStopsStartUpNamingIt(String variable) {
		run(Map.of(variable, "7s")).run((context) -> {
			assertThat(context).hasFailed();
			assertThat(causes(context.getStartupFailure())).contains("Unknown configuration properties")
				.contains(variable.toLowerCase().replace('_', '.').replaceAll("\\.(\\d+)(?=\\.|$)", "[$1]"));
		});
	}

	@Test
	void theUnderscoreFormIsRefusedOutsideTheEnvironmentWhereSpringWouldNotBindIt() {
		new ApplicationContextRunner()
			.withConfiguration(AutoConfigurations.of(ValidationAutoConfiguration.class,
					ConfigurationPropertiesAutoConfiguration.class))
			.withUserConfiguration(SlotKeeperPropertiesTests.PropertiesOnly.class)
			.withPropertyValues("slotkeeper.targets[0].name=orders", "slotkeeper.targets[0].url=jdbc:postgresql://db/x",
					"slotkeeper.targets[0].slots.poll.interval=7s")
			.run((context) -> assertThat(context.getStartupFailure()).rootCause()
				.hasMessageContaining("slotkeeper.targets[0].slots.poll.interval"));
	}

	private static String variable(List<List<String>> path, String joiner) {
		return "SLOTKEEPER_"
				+ String.join("_", path.stream().map((words) -> String.join(joiner, words)).toList()).toUpperCase();
	}

	private static void assertBinds(String variable, List<RecordComponent> chain) {
		RecordComponent leaf = chain.get(chain.size() - 1);
		run(Map.of(variable, sample(leaf.getType()))).run((context) -> {
			assertThat(causes(context.getStartupFailure())).as(variable).isEmpty();
			Object value = context.getBean(SlotKeeperProperties.class);
			for (RecordComponent component : chain) {
				value = component.getAccessor().invoke(value);
				if (value instanceof List<?> list) {
					value = list.get(0);
				}
			}
			assertThat(value).as(variable).isEqualTo(expected(leaf.getType()));
		});
	}

	private static String causes(Throwable failure) {
		StringBuilder messages = new StringBuilder();
		for (Throwable cause = failure; cause != null; cause = cause.getCause()) {
			messages.append(cause.getMessage()).append('\n');
		}
		return messages.toString();
	}

	private static ApplicationContextRunner run(Map<String, Object> variables) {
		Map<String, Object> all = new HashMap<>(REQUIRED);
		all.putAll(variables);
		return new ApplicationContextRunner()
			.withInitializer((context) -> context.getEnvironment()
				.getPropertySources()
				.addFirst(new SystemEnvironmentPropertySource(
						"test-" + StandardEnvironment.SYSTEM_ENVIRONMENT_PROPERTY_SOURCE_NAME, all)))
			.withConfiguration(AutoConfigurations.of(ValidationAutoConfiguration.class,
					ConfigurationPropertiesAutoConfiguration.class))
			.withUserConfiguration(SlotKeeperPropertiesTests.PropertiesOnly.class);
	}

}
