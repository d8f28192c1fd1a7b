package io.slotkeeper.security;

import java.util.List;

import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.tags.Tag;

import org.springframework.security.core.Authentication;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RestController;

import io.slotkeeper.audit.Actor;

/**
 * Who the caller's token says it is, so that a page shows an operator's buttons and hides
 * them from a viewer.
 */
@RestController
@Tag(name = "caller", description = "The caller's token name and role")
class CallerController {

	@GetMapping("/api/v1/me")
	@Operation(summary = "The name, role and groups of the caller",
			description = "operator may change things, " + "viewer may only read. The token itself is never answered.")
	Caller me(Authentication authentication) {
		boolean operator = authentication.getAuthorities()
			.stream()
			.anyMatch((authority) -> "ROLE_OPERATOR".equals(authority.getAuthority()));
		List<String> groups = (authentication.getDetails() instanceof Actor actor) ? actor.groups() : List.of();
		return new Caller(authentication.getName(), operator ? "operator" : "viewer", groups);
	}

	/**
	 * The caller.
	 *
	 * @param name the static token's configured name, or the cluster user's name
	 * @param role {@code operator} or {@code viewer}
	 * @param groups the cluster user's groups; empty for a static token
	 */
	record Caller(String name, String role, List<String> groups) {
	}

}
