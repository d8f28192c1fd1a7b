package io.slotkeeper.security;

import java.util.List;

import org.junit.jupiter.api.Test;

import org.springframework.security.authentication.BadCredentialsException;
import org.springframework.security.core.Authentication;
import org.springframework.security.core.GrantedAuthority;
import org.springframework.security.web.authentication.preauth.PreAuthenticatedAuthenticationToken;

import io.slotkeeper.config.ApiProperties;
import io.slotkeeper.config.ApiRole;
import io.slotkeeper.config.ApiTokenProperties;
import io.slotkeeper.config.KubernetesAuthProperties;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

class ApiTokenAuthenticationProviderTests {

	private final ApiTokenAuthenticationProvider provider = new ApiTokenAuthenticationProvider(new ApiProperties(
			List.of(new ApiTokenProperties("dash", TokenHashes.sha256Hex("v"), ApiRole.VIEWER),
					new ApiTokenProperties("ci", TokenHashes.sha256Hex("o").toUpperCase(), ApiRole.OPERATOR)),
			KubernetesAuthProperties.disabled()));

	@Test
	void viewerGetsViewerRoleOnly() {
		Authentication authentication = this.provider.authenticate(new PreAuthenticatedAuthenticationToken(null, "v"));
		assertThat(authentication.getName()).isEqualTo("dash");
		assertThat(authentication.getAuthorities()).extracting(GrantedAuthority::getAuthority)
			.containsExactly("ROLE_VIEWER");
	}

	@Test
	void operatorGetsBothRolesWhateverTheHashCase() {
		Authentication authentication = this.provider.authenticate(new PreAuthenticatedAuthenticationToken(null, "o"));
		assertThat(authentication.getName()).isEqualTo("ci");
		assertThat(authentication.getAuthorities()).extracting(GrantedAuthority::getAuthority)
			.containsExactly("ROLE_VIEWER", "ROLE_OPERATOR");
	}

	@Test
	void unknownTokenIsRefused() {
		assertThatExceptionOfType(BadCredentialsException.class)
			.isThrownBy(() -> this.provider.authenticate(new PreAuthenticatedAuthenticationToken(null, "x")));
	}

	@Test
	void withNoTokensConfiguredEveryTokenIsRefused() {
		ApiTokenAuthenticationProvider none = new ApiTokenAuthenticationProvider(
				new ApiProperties(List.of(), KubernetesAuthProperties.disabled()));
		assertThatExceptionOfType(BadCredentialsException.class)
			.isThrownBy(() -> none.authenticate(new PreAuthenticatedAuthenticationToken(null, "")));
		assertThatExceptionOfType(BadCredentialsException.class)
			.isThrownBy(() -> none.authenticate(new PreAuthenticatedAuthenticationToken(null, "v")));
	}

	@Test
	void hashIsWhatSha256sumPrints() {
		// printf %s token | sha256sum
		assertThat(TokenHashes.sha256Hex("token"))
			.isEqualTo("3c469e9d6c5875d37a43f353d4f88e61fcf812c66eee3457465a40b0da4153e0");
	}

}
