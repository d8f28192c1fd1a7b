package io.slotkeeper.testbed;

import org.springframework.test.web.servlet.client.RestTestClient;

/**
 * What an application's {@code /actuator/prometheus} answers, as Prometheus scrapes it.
 */
public final class Scrape {

	private Scrape() {
	}

	/**
	 * Scrapes once, asserting a 200.
	 * @param client a client of the port Actuator answers on
	 * @return the scrape's text
	 */
	public static String of(RestTestClient client) {
		return new String(client.get()
			.uri("/actuator/prometheus")
			.exchange()
			.expectStatus()
			.isOk()
			.expectBody()
			.returnResult()
			.getResponseBodyContent());
	}

}
