package io.slotkeeper.deploy;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.UnaryOperator;
import java.util.stream.Stream;

import com.marcnuri.helm.Helm;
import com.marcnuri.helm.TemplateCommand;
import org.yaml.snakeyaml.Yaml;

/**
 * The chart at {@code helm/slot-keeper}, rendered by Helm itself (helm-java, native Helm)
 * and parsed.
 */
final class HelmChart {

	static final Path CHART = Path.of("helm/slot-keeper");

	private HelmChart() {
	}

	static List<Path> ciValuesFiles() {
		try (Stream<Path> files = Files.list(CHART.resolve("ci"))) {
			return files.filter((file) -> file.toString().endsWith(".yaml")).sorted().toList();
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
	}

	static Rendered render(Path values) {
		return render(values, UnaryOperator.identity());
	}

	static Rendered render(Path values, UnaryOperator<TemplateCommand> more) {
		TemplateCommand command = new Helm(CHART).template()
			.withName("keeper")
			.withNamespace("cdc")
			.withKubeVersion("1.30.0")
			.withValuesFile(values);
		return Rendered.of(more.apply(command).call());
	}

	/**
	 * Rendered manifests.
	 */
	record Rendered(String text, List<Map<String, Object>> documents) {

		@SuppressWarnings("unchecked")
		static Rendered of(String text) {
			List<Map<String, Object>> documents = new ArrayList<>();
			for (Object document : new Yaml().loadAll(text)) {
				if (document instanceof Map<?, ?> map) {
					documents.add((Map<String, Object>) map);
				}
			}
			return new Rendered(text, documents);
		}

		List<Map<String, Object>> ofKind(String kind) {
			return this.documents.stream().filter((document) -> kind.equals(document.get("kind"))).toList();
		}

		String applicationYaml() {
			return ofKind("ConfigMap").stream()
				.map((map) -> (String) get(map, "data", "application.yaml"))
				.filter(java.util.Objects::nonNull)
				.findFirst()
				.orElseThrow(() -> new AssertionError("no ConfigMap with application.yaml"));
		}

		Map<String, Object> one(String kind) {
			List<Map<String, Object>> all = ofKind(kind);
			if (all.size() != 1) {
				throw new AssertionError("expected one " + kind + ", found " + all.size());
			}
			return all.get(0);
		}

	}

	/**
	 * Walks a parsed manifest:
	 * {@code get(deployment, "spec", "template", "spec", "containers", 0)}.
	 */
	@SuppressWarnings("unchecked")
	static <T> T get(Object node, Object... path) {
		Object current = node;
		for (Object step : path) {
			if (current == null) {
				return null;
			}
			current = (step instanceof Integer index) ? ((List<Object>) current).get(index)
					: ((Map<String, Object>) current).get(step);
		}
		return (T) current;
	}

}
