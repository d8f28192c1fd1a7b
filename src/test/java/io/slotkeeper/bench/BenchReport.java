package io.slotkeeper.bench;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

import org.knowm.xchart.BitmapEncoder;
import org.knowm.xchart.CategoryChart;
import org.knowm.xchart.CategoryChartBuilder;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYChartBuilder;
import org.knowm.xchart.style.Styler;

/**
 * Collects the benchmark's sections and charts and writes
 * {@code bench/results/RESULTS.md}.
 */
final class BenchReport {

	static final Path RESULTS = Path.of("bench/results");

	private final List<String> sections = new ArrayList<>();

	BenchReport() {
		System.setProperty("java.awt.headless", "true");
		try {
			Files.createDirectories(RESULTS);
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
	}

	void section(String markdown) {
		this.sections.add(markdown);
		System.out.println(markdown);
	}

	void write(String postgresVersion) {
		String header = "# slot-keeper benchmark results\n\n" + "Written by `./mvnw -Pbench test` on " + LocalDate.now()
				+ ": " + Runtime.getRuntime().availableProcessors() + " cores, " + memory() + " memory, Java "
				+ System.getProperty("java.version") + " (" + System.getProperty("java.vm.name") + "), PostgreSQL "
				+ postgresVersion + " (embedded, `synchronous_commit=off`), JVM max heap "
				+ (Runtime.getRuntime().maxMemory() >> 20) + " MiB. Figures vary between runs on a shared machine:"
				+ " each says how it was repeated; ratios measured in the same run are the claims.\n";
		try {
			Files.writeString(RESULTS.resolve("RESULTS.md"), header + "\n" + String.join("\n", merged()));
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
	}

	// A run of some sections only (-Dtest=SlotKeeperBench#method) keeps the other
	// sections of the file as they were,
	// in the order of their numbers.
	private List<String> merged() throws IOException {
		Path file = RESULTS.resolve("RESULTS.md");
		java.util.TreeMap<Integer, String> byNumber = new java.util.TreeMap<>();
		if (Files.exists(file)) {
			String[] earlier = Files.readString(file).split("(?m)^(?=## \\d+\\. )");
			for (int i = 1; i < earlier.length; i++) {
				byNumber.put(number(earlier[i]), earlier[i].stripTrailing() + "\n");
			}
		}
		this.sections.forEach((section) -> byNumber.put(number(section), section));
		return new ArrayList<>(byNumber.values());
	}

	private static int number(String section) {
		return Integer.parseInt(section.substring(3, section.indexOf('.')));
	}

	static String table(List<String> header, List<List<Object>> rows) {
		StringBuilder table = new StringBuilder(
				"| " + String.join(" | ", header) + " |\n|" + " --- |".repeat(header.size()) + "\n");
		for (List<Object> row : rows) {
			table.append("| ")
				.append(row.stream().map(String::valueOf).collect(Collectors.joining(" | ")))
				.append(" |\n");
		}
		return table.toString();
	}

	static void xyChart(String file, String title, String xTitle, String yTitle, Map<String, double[][]> series) {
		XYChart chart = new XYChartBuilder().width(900)
			.height(500)
			.title(title)
			.xAxisTitle(xTitle)
			.yAxisTitle(yTitle)
			.build();
		chart.getStyler().setLegendPosition(Styler.LegendPosition.InsideNW).setMarkerSize(0);
		series.forEach((name, points) -> chart.addSeries(name, points[0], points[1]));
		save(chart, file);
	}

	static void barChart(String file, String title, String yTitle, List<String> categories,
			Map<String, List<Double>> series) {
		CategoryChart chart = new CategoryChartBuilder().width(900).height(500).title(title).yAxisTitle(yTitle).build();
		chart.getStyler().setLegendPosition(Styler.LegendPosition.InsideNW);
		series.forEach((name, values) -> chart.addSeries(name, categories, values));
		save(chart, file);
	}

	private static void save(org.knowm.xchart.internal.chartpart.Chart<?, ?> chart, String file) {
		try {
			BitmapEncoder.saveBitmap(chart, RESULTS.resolve(file).toString(), BitmapEncoder.BitmapFormat.PNG);
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
	}

	static double median(double[] values) {
		double[] sorted = values.clone();
		Arrays.sort(sorted);
		return sorted[sorted.length / 2];
	}

	static long rssKib(long pid) {
		try {
			return Files.readAllLines(Path.of("/proc/" + pid + "/status"))
				.stream()
				.filter((line) -> line.startsWith("VmRSS:"))
				.map((line) -> Long.parseLong(line.replaceAll("\\D", "")))
				.findFirst()
				.orElse(-1L);
		}
		catch (IOException ex) {
			return -1;
		}
	}

	private static String memory() {
		try {
			String total = Files.readAllLines(Path.of("/proc/meminfo")).get(0).replaceAll("\\D", "");
			return (Long.parseLong(total) >> 20) + " GiB";
		}
		catch (IOException ex) {
			return "? GiB";
		}
	}

	static long cpuNanos() {
		return ((com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean())
			.getProcessCpuTime();
	}

}
