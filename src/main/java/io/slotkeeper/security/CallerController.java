package io.slotkeeper.security;

import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.tags.Tag;

import org.springframework.security.core.Authentication;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RestController;

/**
 * Who the caller's token says it is, so that a page shows an operator's buttons and hides them from a viewer.
 */
@RestController
@Tag(name = "caller", description = "The caller's token name and role")
class CallerController {

	@GetMapping("/api/v1/me")
	@Operation(summary = "The name and role of the caller's token", description = "operator may change things, "
			+ "viewer may only read. The token itself is never answered.")
	Caller me(Authentication authentication) {
		boolean operator = authentication.getAuthorities()
			.stream()
			.anyMatch((authority) -> "ROLE_OPERATOR".equals(authority.getAuthority()));
		return new Caller(authentication.getName(), operator ? "operator" : "viewer");
	}

	/**
	 * The caller.
	 *
	 * @param name the token's configured name
	 * @param role {@code operator} or {@code viewer}
	 */
	record Caller(String name, String role) {
	}

}
