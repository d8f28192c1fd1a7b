package io.slotkeeper;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.api.Test;
import org.springframework.modulith.core.ApplicationModule;
import org.springframework.modulith.core.ApplicationModules;
import org.springframework.modulith.docs.Documenter;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The packages under {@code io.slotkeeper} as Spring Modulith sees them: application
 * modules whose dependencies run one way (no cycle), none reaching into another's
 * internals (a sub-package is used from outside only when its {@code package-info} names
 * it an interface), each declaring what it may use ({@code allowedDependencies}, which
 * {@code verify()} enforces) and using all it declares; and the graph that
 * docs/development.md draws is the declared one.
 */
class ModularityTests {

	private static final ApplicationModules MODULES = ApplicationModules.of(SlotKeeperApplication.class);

	private static final Pattern EDGE = Pattern.compile("^\\s*(\\w+) --> (\\w+)\\s*$");

	@Test
	void theModulesDependOnEachOtherOneWayAndOnlyThroughWhatTheyExpose() {
		MODULES.verify();
		new Documenter(MODULES).writeModulesAsPlantUml().writeIndividualModulesAsPlantUml();
	}

	@Test
	void everyModuleDeclaresWhatItMayUseAndUsesAllOfIt() {
		List<String> undeclared = new ArrayList<>();
		for (ApplicationModule module : MODULES) {
			if (declared(module.getName()) == null) {
				undeclared.add(module.getName());
			}
		}
		assertThat(undeclared).as("modules without @ApplicationModule(allowedDependencies = ...)").isEmpty();
		assertThat(declaredEdges()).as("the declared dependencies, each one used (verify() fails on any other use)")
			.containsExactlyInAnyOrderElementsOf(usedEdges());
	}

	@Test
	void theDocumentedGraphOfTheModulesIsTheDeclaredOne() throws IOException {
		List<String> documented = new ArrayList<>();
		for (String line : Files.readAllLines(Path.of("docs/development.md"))) {
			Matcher edge = EDGE.matcher(line);
			if (edge.matches()) {
				documented.add(edge.group(1) + " --> " + edge.group(2));
			}
		}
		List<String> declared = declaredEdges();
		assertThat(documented)
			.as("the edges of the mermaid graph in docs/development.md, generated from the declarations:%n%s",
					String.join("\n", declared.stream().sorted().map((edge) -> "    " + edge).toList()))
			.containsExactlyInAnyOrderElementsOf(declared);
	}

	private static List<String> usedEdges() {
		List<String> used = new ArrayList<>();
		for (ApplicationModule module : MODULES) {
			module.getDirectDependencies(MODULES)
				.uniqueModules()
				.forEach((other) -> used.add(module.getName() + " --> " + other.getName()));
		}
		return used;
	}

	private static List<String> declaredEdges() {
		List<String> edges = new ArrayList<>();
		for (ApplicationModule module : MODULES) {
			String[] allowed = declared(module.getName());
			for (String dependency : (allowed != null) ? allowed : new String[0]) {
				// A named interface (module :: name) is a use of its module.
				edges.add(module.getName() + " --> " + dependency.split("::")[0].strip());
			}
		}
		return edges;
	}

	private static String[] declared(String module) {
		try {
			org.springframework.modulith.ApplicationModule declaration = Class
				.forName("io.slotkeeper." + module + ".package-info")
				.getAnnotation(org.springframework.modulith.ApplicationModule.class);
			return (declaration != null) ? declaration.allowedDependencies() : null;
		}
		catch (ClassNotFoundException ex) {
			return null;
		}
	}

}
