package io.slotkeeper.testbed;

import org.springframework.test.context.DynamicPropertyRegistry;

import io.slotkeeper.security.TokenHashes;

/**
 * Configures a viewer token ({@code dashboard}) and an operator token ({@code ci}) for a
 * test application.
 */
public final class TestTokens {

	private TestTokens() {
	}

	/**
	 * Registers both tokens as their SHA-256.
	 * @param registry the test's properties
	 * @param viewer the viewer's clear token
	 * @param operator the operator's clear token
	 */
	public static void register(DynamicPropertyRegistry registry, String viewer, String operator) {
		registry.add("slotkeeper.api.tokens[0].name", () -> "dashboard");
		registry.add("slotkeeper.api.tokens[0].role", () -> "viewer");
		registry.add("slotkeeper.api.tokens[0].sha256", () -> TokenHashes.sha256Hex(viewer));
		registry.add("slotkeeper.api.tokens[1].name", () -> "ci");
		registry.add("slotkeeper.api.tokens[1].role", () -> "operator");
		// Upper case on purpose: configured hashes are compared whatever their case.
		registry.add("slotkeeper.api.tokens[1].sha256", () -> TokenHashes.sha256Hex(operator).toUpperCase());
	}

}
