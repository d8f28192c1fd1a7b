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
 * The packages under {@code io.slotkeeper} as Spring Modulith sees them: application modules whose dependencies run
 * one way (no cycle), none reaching into another's internals (a sub-package is used from outside only when its
 * {@code package-info} names it an interface); and the graph that docs/development.md draws is the one the code has.
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
	void theDocumentedGraphOfTheModulesIsTheCodes() throws IOException {
		List<String> actual = new ArrayList<>();
		for (ApplicationModule module : MODULES) {
			module.getDirectDependencies(MODULES).uniqueModules()
				.forEach((used) -> actual.add(module.getName() + " --> " + used.getName()));
		}
		List<String> documented = new ArrayList<>();
		for (String line : Files.readAllLines(Path.of("docs/development.md"))) {
			Matcher edge = EDGE.matcher(line);
			if (edge.matches()) {
				documented.add(edge.group(1) + " --> " + edge.group(2));
			}
		}
		assertThat(documented).as("the edges of the mermaid graph in docs/development.md")
			.containsExactlyInAnyOrderElementsOf(actual);
	}

}
