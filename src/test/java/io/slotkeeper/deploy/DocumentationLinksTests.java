package io.slotkeeper.deploy;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * README.md and the pages under {@code docs/}: every relative link names a file that
 * exists, and every anchor a heading of its page as GitHub renders it; README stays short
 * enough to read in minutes and links every page.
 */
class DocumentationLinksTests {

	private static final Pattern LINK = Pattern.compile("\\[[^\\]]*\\]\\(([^)\\s]+)\\)");

	private static final int README_MOST_LINES = 300;

	@Test
	void everyRelativeLinkAndAnchorOfTheDocumentationResolves() throws IOException {
		List<String> broken = new ArrayList<>();
		for (Path page : pages()) {
			for (String target : links(page)) {
				if (target.matches("^(https?|mailto):.*")) {
					continue;
				}
				int hash = target.indexOf('#');
				String file = (hash < 0) ? target : target.substring(0, hash);
				Path linked = file.isEmpty() ? page : page.toAbsolutePath().getParent().resolve(file).normalize();
				if (!Files.exists(linked)) {
					broken.add(page + ": " + target + " (no such file)");
				}
				else if (hash >= 0 && linked.toString().endsWith(".md")
						&& !anchors(linked).contains(target.substring(hash + 1))) {
					broken.add(page + ": " + target + " (no such heading)");
				}
			}
		}
		assertThat(broken).as("links that lead nowhere").isEmpty();
	}

	@Test
	void theReadmeReadsInMinutesAndLinksEveryPage() throws IOException {
		Path readme = Path.of("README.md");
		assertThat(Files.readAllLines(readme)).hasSizeLessThanOrEqualTo(README_MOST_LINES);
		List<String> linked = links(readme);
		try (Stream<Path> docs = Files.list(Path.of("docs"))) {
			assertThat(docs.filter((doc) -> doc.toString().endsWith(".md")).map((doc) -> "docs/" + doc.getFileName()))
				.allMatch(linked::contains);
		}
	}

	/**
	 * The anchors GitHub gives a page's headings (outside code blocks): lower case,
	 * punctuation but hyphens dropped, spaces as hyphens.
	 */
	static Set<String> anchors(Path page) throws IOException {
		Set<String> anchors = new HashSet<>();
		boolean code = false;
		for (String line : Files.readAllLines(page)) {
			if (line.startsWith("```")) {
				code = !code;
			}
			else if (!code && line.startsWith("#")) {
				anchors.add(line.replaceFirst("^#+\\s*", "")
					.strip()
					.toLowerCase(Locale.ROOT)
					.replaceAll("[^\\p{L}\\p{N}_\\- ]", "")
					.replace(' ', '-'));
			}
		}
		return anchors;
	}

	private static List<String> links(Path page) throws IOException {
		List<String> links = new ArrayList<>();
		boolean code = false;
		for (String line : Files.readAllLines(page)) {
			if (line.startsWith("```")) {
				code = !code;
				continue;
			}
			Matcher matcher = LINK.matcher(line);
			while (!code && matcher.find()) {
				links.add(matcher.group(1));
			}
		}
		return links;
	}

	private static List<Path> pages() throws IOException {
		List<Path> pages = new ArrayList<>(List.of(Path.of("README.md"), Path.of("bench/results/RESULTS.md")));
		try (Stream<Path> docs = Files.list(Path.of("docs"))) {
			docs.filter((doc) -> doc.toString().endsWith(".md")).sorted().forEach(pages::add);
		}
		return pages;
	}

}
