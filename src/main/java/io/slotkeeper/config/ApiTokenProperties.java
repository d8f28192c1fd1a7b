package io.slotkeeper.config;

import jakarta.validation.constraints.NotBlank;
import jakarta.validation.constraints.NotNull;
import jakarta.validation.constraints.Pattern;

/**
 * One bearer token accepted by the API, stored as its SHA-256 hash so that the clear
 * token exists only with its holder.
 *
 * @param name who holds the token; it names the caller in logs
 * @param sha256 SHA-256 of the token as 64 hexadecimal digits, for example the output of
 * {@code printf %s "$TOKEN" | sha256sum}
 * @param role what the token may do: {@code viewer} or {@code operator}
 */
public record ApiTokenProperties(@NotBlank @Pattern(regexp = "^[a-z0-9][a-z0-9._-]{0,62}$",
		message = "must be lower-case letters, digits, dots, dashes and underscores, 1 to 63 characters") String name,
		@NotBlank @Pattern(regexp = "^[0-9a-fA-F]{64}$",
				message = "must be 64 hexadecimal digits (a SHA-256 hash)") String sha256,
		@NotNull ApiRole role) {

	@Override
	public String toString() {
		return "ApiTokenProperties[name=" + this.name + ", role=" + this.role + "]";
	}

}
