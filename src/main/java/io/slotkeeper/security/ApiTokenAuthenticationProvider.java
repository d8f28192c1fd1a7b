package io.slotkeeper.security;

import java.security.MessageDigest;
import java.util.HexFormat;
import java.util.List;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import org.springframework.security.authentication.AuthenticationProvider;
import org.springframework.security.authentication.BadCredentialsException;
import org.springframework.security.authentication.UsernamePasswordAuthenticationToken;
import org.springframework.security.core.Authentication;
import org.springframework.security.core.GrantedAuthority;
import org.springframework.security.core.authority.AuthorityUtils;
import org.springframework.security.web.authentication.preauth.PreAuthenticatedAuthenticationToken;

import io.slotkeeper.config.ApiProperties;
import io.slotkeeper.config.ApiRole;

/**
 * Authenticates a bearer token by hashing it with SHA-256 and comparing the hash with
 * every configured one in constant time, so that neither the comparison nor which token
 * matched shows in the response time. A viewer gets {@code ROLE_VIEWER}; an operator gets
 * {@code ROLE_VIEWER} and {@code ROLE_OPERATOR}.
 */
public class ApiTokenAuthenticationProvider implements AuthenticationProvider {

	private static final Logger logger = LoggerFactory.getLogger(ApiTokenAuthenticationProvider.class);

	private final List<KnownToken> tokens;

	/**
	 * Loads the configured token hashes.
	 * @param properties the API configuration
	 */
	public ApiTokenAuthenticationProvider(ApiProperties properties) {
		this.tokens = properties.tokens()
			.stream()
			.map((token) -> new KnownToken(token.name(), HexFormat.of().parseHex(token.sha256()),
					authorities(token.role())))
			.toList();
		if (this.tokens.isEmpty() && !properties.kubernetes().enabled()) {
			logger.warn("No API tokens are configured (slotkeeper.api.tokens is empty): every /api call is refused");
		}
		else {
			logger.info("API tokens configured: {}",
					properties.tokens()
						.stream()
						.map((token) -> token.name() + " (" + token.role().name().toLowerCase() + ")")
						.toList());
		}
	}

	private static List<GrantedAuthority> authorities(ApiRole role) {
		return (role == ApiRole.OPERATOR) ? AuthorityUtils.createAuthorityList("ROLE_VIEWER", "ROLE_OPERATOR")
				: AuthorityUtils.createAuthorityList("ROLE_VIEWER");
	}

	@Override
	public Authentication authenticate(Authentication authentication) {
		byte[] presented = TokenHashes.sha256(String.valueOf(authentication.getCredentials()));
		KnownToken match = null;
		for (KnownToken token : this.tokens) {
			// Every token is compared, match or not, so the time taken does not tell
			// which one matched.
			if (MessageDigest.isEqual(token.sha256(), presented)) {
				match = token;
			}
		}
		if (match == null) {
			throw new BadCredentialsException("the bearer token is not one of the configured tokens");
		}
		return UsernamePasswordAuthenticationToken.authenticated(match.name(), null, match.authorities());
	}

	@Override
	public boolean supports(Class<?> authentication) {
		return PreAuthenticatedAuthenticationToken.class.isAssignableFrom(authentication);
	}

	private record KnownToken(String name, byte[] sha256, List<GrantedAuthority> authorities) {
	}

}
