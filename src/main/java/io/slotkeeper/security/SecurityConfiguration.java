package io.slotkeeper.security;

import java.time.Clock;

import org.springframework.beans.factory.annotation.Qualifier;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.http.HttpMethod;
import org.springframework.security.config.annotation.web.builders.HttpSecurity;
import org.springframework.security.config.annotation.web.configurers.AbstractHttpConfigurer;
import org.springframework.security.config.http.SessionCreationPolicy;
import org.springframework.security.web.AuthenticationEntryPoint;
import org.springframework.security.web.SecurityFilterChain;
import org.springframework.security.web.access.AccessDeniedHandler;
import org.springframework.security.web.access.intercept.AuthorizationFilter;
import org.springframework.security.web.header.writers.DelegatingRequestMatcherHeaderWriter;
import org.springframework.security.web.header.writers.ReferrerPolicyHeaderWriter.ReferrerPolicy;
import org.springframework.security.web.header.writers.StaticHeadersWriter;
import org.springframework.security.web.servlet.util.matcher.PathPatternRequestMatcher;
import org.springframework.security.web.util.matcher.OrRequestMatcher;
import org.springframework.security.web.util.matcher.RequestMatcher;
import org.springframework.web.servlet.HandlerExceptionResolver;

import io.slotkeeper.config.KubernetesAuthProperties;
import io.slotkeeper.config.SlotKeeperProperties;
import io.slotkeeper.security.cluster.ClusterTokens;

/**
 * Who may call what. {@code /api/**} needs a bearer token, static or (when on) the
 * caller's own cluster token: a viewer may GET, an operator may also change things.
 * Health, Prometheus, info, the API documentation and the operator's page (static files:
 * its data comes from the API, with the token the reader pastes) are open; every other
 * endpoint is closed. Stateless: no session, no cookie, so no CSRF token either. The page
 * is served with a strict Content-Security-Policy: its own scripts and styles only, no
 * inline script, no frame, no form target, no other origin.
 */
@Configuration(proxyBeanMethods = false)
class SecurityConfiguration {

	/**
	 * The operator page's files.
	 */
	static final String[] PAGE = { "/", "/index.html", "/ui/**" };

	/**
	 * The operator page's Content-Security-Policy.
	 */
	static final String PAGE_POLICY = "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; "
			+ "connect-src 'self'; form-action 'none'; frame-ancestors 'none'; base-uri 'none'";

	@Bean
	BearerTokens bearerTokens(SlotKeeperProperties properties, Clock clock) {
		KubernetesAuthProperties kubernetes = properties.api().kubernetes();
		return new BearerTokens(new ApiTokenAuthenticationProvider(properties.api()),
				kubernetes.enabled() ? new ClusterTokens(kubernetes, clock) : null);
	}

	@Bean
	SecurityFilterChain securityFilterChain(HttpSecurity http, BearerTokens provider,
			@Qualifier("handlerExceptionResolver") HandlerExceptionResolver resolver) throws Exception {
		// Security errors are raised before Spring MVC; handing them to the resolver lets
		// the one exception
		// handler answer them as problems like every other error.
		AuthenticationEntryPoint entryPoint = (request, response, ex) -> resolver.resolveException(request, response,
				null, ex);
		AccessDeniedHandler deniedHandler = (request, response, ex) -> resolver.resolveException(request, response,
				null, ex);
		RequestMatcher page = new OrRequestMatcher(java.util.Arrays.stream(PAGE)
			.map((pattern) -> (RequestMatcher) PathPatternRequestMatcher.withDefaults().matcher(pattern))
			.toList());
		return http.csrf(AbstractHttpConfigurer::disable)
			.headers((headers) -> headers.referrerPolicy((referrer) -> referrer.policy(ReferrerPolicy.NO_REFERRER))
				.addHeaderWriter(new DelegatingRequestMatcherHeaderWriter(page,
						new StaticHeadersWriter("Content-Security-Policy", PAGE_POLICY))))
			.httpBasic(AbstractHttpConfigurer::disable)
			.formLogin(AbstractHttpConfigurer::disable)
			.logout(AbstractHttpConfigurer::disable)
			.requestCache(AbstractHttpConfigurer::disable)
			.sessionManagement((sessions) -> sessions.sessionCreationPolicy(SessionCreationPolicy.STATELESS))
			.addFilterBefore(new BearerTokenFilter(provider, entryPoint), AuthorizationFilter.class)
			.exceptionHandling(
					(exceptions) -> exceptions.authenticationEntryPoint(entryPoint).accessDeniedHandler(deniedHandler))
			.authorizeHttpRequests((requests) -> requests
				.requestMatchers("/actuator/health", "/actuator/health/**", "/actuator/prometheus", "/actuator/info")
				.permitAll()
				.requestMatchers("/v3/api-docs", "/v3/api-docs/**", "/v3/api-docs.yaml", "/swagger-ui.html",
						"/swagger-ui/**")
				.permitAll()
				.requestMatchers("/error")
				.permitAll()
				.requestMatchers(HttpMethod.GET, PAGE)
				.permitAll()
				.requestMatchers(HttpMethod.GET, "/api/**")
				.hasRole("VIEWER")
				.requestMatchers("/api/**")
				.hasRole("OPERATOR")
				.anyRequest()
				.denyAll())
			.build();
	}

}
