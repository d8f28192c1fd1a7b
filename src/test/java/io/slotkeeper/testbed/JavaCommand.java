package io.slotkeeper.testbed;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * The command line that starts a Java process of a test's own (a Kafka broker, a Connect
 * worker, a slot-keeper instance): this JVM's {@code java}, the options the build gives
 * every test JVM ({@code -Dtestbed.child-jvm-options}, the pom's
 * {@code test.jvm.options}: a quick JIT for processes that live seconds to minutes, none
 * in the benchmarks), then the caller's own options and the class path.
 */
public final class JavaCommand {

	private JavaCommand() {
	}

	/**
	 * The command up to the main class.
	 * @param classPath the class path
	 * @param options JVM options of the caller's, after the build's
	 * @return {@code java}, the options, {@code -cp} and the class path; the caller adds
	 * the main class and its arguments
	 */
	public static List<String> of(String classPath, String... options) {
		List<String> command = new ArrayList<>();
		command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
		Arrays.stream(System.getProperty("testbed.child-jvm-options", "").split("\\s+"))
			.filter((option) -> !option.isEmpty())
			.forEach(command::add);
		command.addAll(List.of(options));
		command.add("-cp");
		command.add(classPath);
		return command;
	}

	/**
	 * The command up to the main class, on this JVM's own class path.
	 * @param options JVM options of the caller's, after the build's
	 * @return the command
	 */
	public static List<String> onTestClassPath(String... options) {
		return of(System.getProperty("java.class.path"), options);
	}

}
