package io.slotkeeper.page;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

import org.openqa.selenium.By;
import org.openqa.selenium.StaleElementReferenceException;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.chrome.ChromeDriver;

import io.slotkeeper.testbed.Browser;

import static org.awaitility.Awaitility.await;

/**
 * What a test does on the operator's page, in its words: sign in, find a slot's row,
 * press its buttons.
 */
final class PageDriver {

	static final Path SCREENSHOTS = Path.of("target", "page-screenshots");

	private final Browser browser;

	private final String baseUrl;

	PageDriver(Browser browser, int port) {
		this.browser = browser;
		this.baseUrl = "http://localhost:" + port + "/";
	}

	ChromeDriver driver() {
		return this.browser.driver();
	}

	void open() {
		driver().get(this.baseUrl);
	}

	void signIn(String token) {
		WebElement field = driver().findElement(By.id("token"));
		field.clear();
		field.sendKeys(token);
		driver().findElement(By.cssSelector("#token-form button[type=submit]")).click();
	}

	/**
	 * Waits until the page rendered the overview at least once after now.
	 */
	void awaitRefresh() {
		String before = loadedAt();
		await().atMost(Duration.ofSeconds(30)).until(() -> {
			String now = loadedAt();
			return now != null && !now.equals(before);
		});
	}

	String loadedAt() {
		return driver().findElement(By.tagName("body")).getDomAttribute("data-loaded");
	}

	List<WebElement> rows(String slot) {
		return driver().findElements(By.cssSelector("tr[data-slot='" + slot + "']"));
	}

	// Read in one script so that a refresh replacing the element between finding and
	// reading cannot fail the read.
	String rowText(String slot) {
		return textOf("tr[data-slot='" + slot + "']");
	}

	String text(String id) {
		return textOf("#" + id);
	}

	String textOf(String selector) {
		Object text = driver().executeScript(
				"const e = document.querySelector(arguments[0]);" + " return e ? e.innerText : '';", selector);
		return String.valueOf(text);
	}

	String attributeOf(String selector, String attribute) {
		return (String) driver().executeScript(
				"const e = document.querySelector(arguments[0]);" + " return e ? e.getAttribute(arguments[1]) : null;",
				selector, attribute);
	}

	// A refresh may replace the row between finding the button and clicking it: find it
	// again then.
	void press(String slot, String button) {
		await().atMost(Duration.ofSeconds(10)).ignoreException(StaleElementReferenceException.class).until(() -> {
			rows(slot).get(0).findElement(By.xpath(".//button[normalize-space()='" + button + "']")).click();
			return true;
		});
	}

	void screenshot(String name) {
		this.browser.screenshot(SCREENSHOTS.resolve(name + ".png"));
	}

}
