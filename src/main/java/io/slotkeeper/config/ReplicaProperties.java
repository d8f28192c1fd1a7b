package io.slotkeeper.config;

import jakarta.validation.constraints.NotBlank;
import jakarta.validation.constraints.Pattern;

/**
 * A read replica (streaming standby) of a target, whose slots the API can manage with
 * {@code ?node=<name>}. Logical slots on a standby need PostgreSQL 16 or later.
 * Heartbeats always go to the primary.
 *
 * @param name the replica's name in the API: lower-case letters, digits and dashes, at
 * most 63 characters
 * @param url PgJDBC URL of the replica
 * @param username role slot-keeper logs in as on the replica
 * @param password its password; never logged or shown
 */
public record ReplicaProperties(
		@NotBlank @Pattern(regexp = TargetProperties.NAME_PATTERN,
				message = "must be lower-case letters, digits and dashes, 1 to 63 characters") String name,
		@NotBlank @Pattern(regexp = "^jdbc:postgresql:.+",
				message = "must be a PgJDBC URL starting with jdbc:postgresql:") String url,
		String username, Secret password) {

}
