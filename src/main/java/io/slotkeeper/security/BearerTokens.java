package io.slotkeeper.security;

import org.springframework.security.authentication.AuthenticationProvider;
import org.springframework.security.authentication.BadCredentialsException;
import org.springframework.security.core.Authentication;
import org.springframework.security.web.authentication.preauth.PreAuthenticatedAuthenticationToken;

import io.slotkeeper.security.cluster.ClusterTokens;

/**
 * Every way a bearer token signs in: a configured static token first (compared in
 * constant time, no I/O), then, when cluster sign-in is on, the caller's own Kubernetes
 * token. A static token therefore keeps working while the Kubernetes API server is down.
 */
class BearerTokens implements AuthenticationProvider {

	private final ApiTokenAuthenticationProvider configured;

	private final ClusterTokens cluster;

	BearerTokens(ApiTokenAuthenticationProvider configured, ClusterTokens cluster) {
		this.configured = configured;
		this.cluster = cluster;
	}

	@Override
	public Authentication authenticate(Authentication authentication) {
		try {
			return this.configured.authenticate(authentication);
		}
		catch (BadCredentialsException ex) {
			if (this.cluster == null) {
				throw ex;
			}
			return this.cluster.authenticate(String.valueOf(authentication.getCredentials()));
		}
	}

	@Override
	public boolean supports(Class<?> authentication) {
		return PreAuthenticatedAuthenticationToken.class.isAssignableFrom(authentication);
	}

}
