package io.slotkeeper.testbed;

import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;
import java.util.logging.Level;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.api.Assertions;
import org.junit.jupiter.api.Assumptions;
import org.openqa.selenium.By;
import org.openqa.selenium.OutputType;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.chrome.ChromeDriverService;
import org.openqa.selenium.chrome.ChromeOptions;
import org.openqa.selenium.logging.LogEntry;
import org.openqa.selenium.logging.LogType;
import org.openqa.selenium.logging.LoggingPreferences;

import static org.awaitility.Awaitility.await;

/**
 * Debian's Chromium, headless, driven by its ChromeDriver
 * ({@code apt-get install -y chromium chromium-driver}): no browser is downloaded. Where
 * they are missing the test is skipped with how to install them, except in CI
 * ({@code CI=true}), where the browser tests are mandatory and fail instead. Collects the
 * console, so that a test can fail on any error or Content-Security-Policy violation, and
 * every URL the page requested.
 */
public final class Browser implements AutoCloseable {

	private static final Path CHROMIUM = Path.of(System.getProperty("chromium.binary", "/usr/bin/chromium"));

	private static final Path CHROMEDRIVER = Path
		.of(System.getProperty("chromedriver.binary", "/usr/bin/chromedriver"));

	private static final Pattern URL = Pattern.compile("\"(?:url|documentURL)\":\"([^\"]*)\"");

	private final ChromeDriver driver;

	private final Path profile;

	private final List<String> console = new ArrayList<>();

	private final List<String> requested = new ArrayList<>();

	private Browser(ChromeDriver driver, Path profile) {
		this.driver = driver;
		this.profile = profile;
	}

	/**
	 * Starts the browser, or skips the test where it is not installed (fails in CI).
	 * @return the browser
	 */
	public static Browser start() {
		boolean installed = Files.isExecutable(CHROMIUM) && Files.isExecutable(CHROMEDRIVER);
		String missing = CHROMIUM + " or " + CHROMEDRIVER + " is missing: install them with"
				+ " 'apt-get install -y chromium chromium-driver' (Debian) to run the browser tests";
		if (!installed && "true".equalsIgnoreCase(System.getenv("CI"))) {
			Assertions.fail("CI runs the browser tests: " + missing);
		}
		Assumptions.assumeTrue(installed, missing);
		Path profile;
		try {
			profile = Files.createTempDirectory("chromium-profile");
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
		ChromeOptions options = new ChromeOptions();
		options.setBinary(CHROMIUM.toFile());
		// Without the background-networking flags Chromium keeps calling home, and this
		// network refuses it.
		options.addArguments("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
				"--disable-component-update", "--no-first-run", "--disable-sync", "--disable-quic",
				"--disable-dev-shm-usage", "--window-size=1440,1000", "--user-data-dir=" + profile);
		LoggingPreferences logs = new LoggingPreferences();
		logs.enable(LogType.BROWSER, Level.ALL);
		logs.enable(LogType.PERFORMANCE, Level.ALL);
		options.setCapability("goog:loggingPrefs", logs);
		options.setExperimentalOption("perfLoggingPrefs", Map.of("enableNetwork", true, "enablePage", false));
		ChromeDriverService service = new ChromeDriverService.Builder().usingDriverExecutable(CHROMEDRIVER.toFile())
			.usingAnyFreePort()
			.build();
		ChromeDriver driver = new ChromeDriver(service, options);
		driver.manage().timeouts().scriptTimeout(Duration.ofSeconds(30));
		return new Browser(driver, profile);
	}

	/**
	 * The driver.
	 * @return it
	 */
	public ChromeDriver driver() {
		return this.driver;
	}

	/**
	 * Opens slot-keeper's page and signs in with a token, as an operator pastes it.
	 * @param url the page's address
	 * @param token the token
	 */
	public void signIn(String url, String token) {
		this.driver.get(url);
		this.driver.findElement(By.id("token")).sendKeys(token);
		this.driver.findElement(By.cssSelector("#token-form button[type=submit]")).click();
	}

	/**
	 * The text of an element of the page, once it says what is awaited (the page renders
	 * anew with every refresh, so the element is looked for again each time).
	 * @param selector the element's CSS selector
	 * @param until what the text must say
	 * @return the text
	 */
	public String awaitText(String selector, Predicate<String> until) {
		return await().atMost(Duration.ofSeconds(30))
			.ignoreExceptions()
			.until(() -> this.driver.findElement(By.cssSelector(selector)).getText(), until::test);
	}

	/**
	 * Every console message so far, level first.
	 * @return the messages
	 */
	public List<String> console() {
		collect();
		return List.copyOf(this.console);
	}

	/**
	 * Console errors and warnings so far, those that match an expected pattern left out.
	 * @param expected patterns of errors the test caused on purpose (a refused token's
	 * 401, say)
	 * @return the unexpected ones
	 */
	public List<String> unexpectedProblems(String... expected) {
		return console().stream()
			.filter((line) -> line.startsWith("SEVERE") || line.startsWith("WARNING")
					|| line.contains("Content-Security-Policy"))
			.filter((line) -> java.util.Arrays.stream(expected)
				.noneMatch((pattern) -> line.matches("(?s).*" + pattern + ".*")))
			.toList();
	}

	/**
	 * Every URL the page asked for so far.
	 * @return the URLs, in order
	 */
	public List<String> requestedUrls() {
		collect();
		return List.copyOf(this.requested);
	}

	/**
	 * Saves a screenshot of the window.
	 * @param file where
	 */
	public void screenshot(Path file) {
		try {
			Files.createDirectories(file.getParent());
			Files.write(file, this.driver.getScreenshotAs(OutputType.BYTES));
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
	}

	private synchronized void collect() {
		for (LogEntry entry : this.driver.manage().logs().get(LogType.BROWSER)) {
			this.console.add(entry.getLevel() + " " + entry.getMessage());
		}
		for (LogEntry entry : this.driver.manage().logs().get(LogType.PERFORMANCE)) {
			if (entry.getMessage().contains("\"Network.requestWillBeSent\"")) {
				Matcher url = URL.matcher(entry.getMessage());
				while (url.find()) {
					this.requested.add(url.group(1));
				}
			}
		}
	}

	@Override
	public void close() {
		this.driver.quit();
		deleteQuietly(this.profile.toFile());
	}

	private static void deleteQuietly(File file) {
		File[] children = file.listFiles();
		if (children != null) {
			for (File child : children) {
				deleteQuietly(child);
			}
		}
		file.delete();
	}

}
