package io.slotkeeper.deploy;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The rules an image for OpenShift's restricted SCC must follow, read from the Dockerfile
 * on every machine; {@link ImageTests} builds and runs it where podman can.
 */
class DockerfileTests {

	private final List<String> lines = Files.readAllLines(Path.of("Dockerfile"));

	DockerfileTests() throws IOException {
	}

	@Test
	void everyBaseImageIsPinnedToAVersionTag() {
		List<String> from = this.lines.stream().filter((line) -> line.startsWith("FROM ")).toList();
		assertThat(from).hasSize(2);
		assertThat(from).allSatisfy((line) -> {
			Matcher image = Pattern.compile("^FROM (\\S+?):(\\S+?)(@sha256:[0-9a-f]{64})?( AS \\w+)?$").matcher(line);
			assertThat(image.matches()).as("FROM with a tag: %s", line).isTrue();
			assertThat(image.group(2)).as("tag of %s", line).isNotEqualTo("latest").matches("\\d+(\\.\\d+)*.*");
		});
		assertThat(from.get(1)).as("the run stage is a JRE 17+")
			.containsAnyOf("openjdk-17-runtime", "openjdk-21-runtime", "temurin:17-jre", "temurin:21-jre");
	}

	@Test
	void runsAsANumericNonRootUser() {
		List<String> users = this.lines.stream().filter((line) -> line.startsWith("USER ")).toList();
		String last = users.get(users.size() - 1);
		assertThat(last).matches("USER [1-9]\\d*(:0)?");
	}

	@Test
	void copiesTheSpringBootLayersOwnedByGroupZero() {
		assertThat(String.join("\n", this.lines)).contains("-Djarmode=tools -jar application.jar extract --layers");
		List<String> layers = this.lines.stream().filter((line) -> line.startsWith("COPY --from=build")).toList();
		assertThat(layers).extracting((line) -> line.replaceAll(".*/build/(?:extracted/)?([a-z-]+)/.*", "$1"))
			.as("no always-empty layer: the loader and snapshot layers join the application's")
			.containsExactly("dependencies", "application");
		assertThat(layers).allSatisfy((line) -> assertThat(line).contains("--chown=").matches(".*--chown=\\d+:0 .*"));
	}

	@Test
	void containerFriendlyJvmPortAndConfiguration() {
		String dockerfile = String.join("\n", this.lines);
		assertThat(dockerfile).contains("-XX:MaxRAMPercentage=")
			.contains("EXPOSE 8080")
			.contains("-Djava.io.tmpdir=/tmp")
			.contains("SPRING_CONFIG_ADDITIONAL_LOCATION=\"optional:file:/etc/slot-keeper/\"");
		assertThat(dockerfile).doesNotContain("VOLUME").contains("MANAGEMENT_SERVER_PORT=9090");
		assertThat(dockerfile).as("a disconnected build fetches no BuildKit frontend").doesNotContain("# syntax=");
		assertThat(dockerfile).as("what is not heap is bounded too")
			.contains("-XX:MaxMetaspaceSize=", "-XX:ReservedCodeCacheSize=", "-XX:MaxDirectMemorySize=", "-Xss",
					"MALLOC_ARENA_MAX=");
	}

	@Test
	void startsFromAClassDataSharingArchiveMadeByATrainingRunAtBuildTime() {
		String dockerfile = String.join("\n", this.lines);
		Matcher training = Pattern
			.compile("RUN java (-XX:\\+Use\\w+GC) -XX:ArchiveClassesAtExit=(\\S+)" + " -Dspring.context.exit=onRefresh")
			.matcher(dockerfile);
		assertThat(training.find()).as("a training run writes the archive").isTrue();
		assertThat(dockerfile.substring(training.start())).as("readable by any UID in group 0")
			.contains("chmod 644 " + training.group(2));
		assertThat(this.lines.stream().filter((line) -> line.startsWith("ENTRYPOINT ")).toList()).singleElement()
			.asString()
			.as("the same collector as the training run, and its archive")
			.contains("\"" + training.group(1) + "\"", "\"-XX:SharedArchiveFile=" + training.group(2) + "\"");
	}

	@Test
	void dockerignoreKeepsTheBuildContextToTheSources() throws IOException {
		assertThat(Files.readAllLines(Path.of(".dockerignore"))).contains("target/", ".git/", "helm/");
	}

}
