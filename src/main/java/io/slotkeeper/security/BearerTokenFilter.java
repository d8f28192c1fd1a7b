package io.slotkeeper.security;

import java.io.IOException;

import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;

import org.springframework.http.HttpHeaders;
import org.springframework.security.authentication.AuthenticationProvider;
import org.springframework.security.authentication.BadCredentialsException;
import org.springframework.security.core.Authentication;
import org.springframework.security.core.AuthenticationException;
import org.springframework.security.core.context.SecurityContext;
import org.springframework.security.core.context.SecurityContextHolder;
import org.springframework.security.core.context.SecurityContextHolderStrategy;
import org.springframework.security.web.AuthenticationEntryPoint;
import org.springframework.security.web.authentication.preauth.PreAuthenticatedAuthenticationToken;
import org.springframework.web.filter.OncePerRequestFilter;

/**
 * Reads {@code Authorization: Bearer <token>}. No header leaves the request anonymous
 * (open endpoints stay open, the rest answer 401); a header that is malformed or holds an
 * unknown token is answered 401 at once.
 */
class BearerTokenFilter extends OncePerRequestFilter {

	private static final String PREFIX = "Bearer ";

	private final AuthenticationProvider provider;

	private final AuthenticationEntryPoint entryPoint;

	private final SecurityContextHolderStrategy contexts = SecurityContextHolder.getContextHolderStrategy();

	BearerTokenFilter(AuthenticationProvider provider, AuthenticationEntryPoint entryPoint) {
		this.provider = provider;
		this.entryPoint = entryPoint;
	}

	@Override
	protected void doFilterInternal(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
			throws ServletException, IOException {
		String header = request.getHeader(HttpHeaders.AUTHORIZATION);
		if (header == null) {
			chain.doFilter(request, response);
			return;
		}
		Authentication authenticated;
		try {
			authenticated = this.provider.authenticate(new PreAuthenticatedAuthenticationToken(null, token(header)));
		}
		catch (AuthenticationException ex) {
			this.contexts.clearContext();
			this.entryPoint.commence(request, response, ex);
			return;
		}
		SecurityContext context = this.contexts.createEmptyContext();
		context.setAuthentication(authenticated);
		this.contexts.setContext(context);
		try {
			chain.doFilter(request, response);
		}
		finally {
			this.contexts.clearContext();
		}
	}

	private static String token(String header) {
		if (header.length() <= PREFIX.length() || !header.regionMatches(true, 0, PREFIX, 0, PREFIX.length())) {
			throw new BadCredentialsException("the Authorization header must be 'Bearer <token>'");
		}
		return header.substring(PREFIX.length()).trim();
	}

}
