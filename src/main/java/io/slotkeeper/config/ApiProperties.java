package io.slotkeeper.config;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

import jakarta.validation.Valid;
import jakarta.validation.constraints.NotNull;

import org.springframework.boot.context.properties.NestedConfigurationProperty;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * The admin API.
 *
 * @param tokens bearer tokens the API accepts; with none (and no cluster sign-in), every
 * API call is refused
 * @param kubernetes sign-in with the caller's own Kubernetes / OpenShift token, beside
 * the static tokens
 */
@Consistent
public record ApiProperties(@NotNull @DefaultValue List<@Valid ApiTokenProperties> tokens,
		@NotNull @Valid @DefaultValue @NestedConfigurationProperty KubernetesAuthProperties kubernetes)
		implements
			CrossFieldChecked {

	@Override
	public List<Violation> violations() {
		List<Violation> violations = new ArrayList<>(
				CrossFieldChecked.duplicateNames("tokens", this.tokens, ApiTokenProperties::name, "token name"));
		Set<String> hashes = new HashSet<>();
		for (int i = 0; i < this.tokens.size(); i++) {
			ApiTokenProperties token = this.tokens.get(i);
			if (token.sha256() != null && !hashes.add(token.sha256().toLowerCase())) {
				violations.add(new Violation("tokens[" + i + "].sha256", "the same token is configured twice"));
			}
		}
		return violations;
	}

}
