package io.slotkeeper.config;

import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.NotBlank;
import jakarta.validation.constraints.NotNull;
import jakarta.validation.constraints.Pattern;
import org.hibernate.validator.constraints.time.DurationMax;
import org.hibernate.validator.constraints.time.DurationMin;

import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * Sign-in with the caller's own Kubernetes / OpenShift token: a bearer token that is not
 * a configured static token is authenticated with a {@code TokenReview} and authorized
 * with {@code SubjectAccessReview}s, both made with the pod's service account.
 *
 * @param enabled whether cluster tokens are accepted (static tokens always are)
 * @param apiServer the Kubernetes API server; in a pod,
 * {@code https://kubernetes.default.svc}
 * @param serviceAccountTokenFile the pod's service-account token, read at every review
 * (projected tokens rotate)
 * @param caFile the CA that signs the API server's certificate; used when it exists and
 * the API server is HTTPS
 * @param namespace the namespace whose RBAC decides, normally the release's; empty reads
 * the pod's namespace file
 * @param group the API group of the resource that callers' rights are checked on
 * @param resource the resource: {@code get} makes a viewer, {@code update} and
 * {@code delete} together an operator
 * @param cacheTtl how long a review's answer (allowed, denied or unauthenticated) is
 * reused for the same token; a revoked token or removed role binding takes effect within
 * this time
 * @param timeout how long one review may take, connecting included, before the request is
 * answered 503
 * @param audiences the audiences a token must be meant for, sent as the
 * {@code TokenReview}'s {@code spec.audiences} and required in its
 * {@code status.audiences}; empty accepts any token the API server accepts (its own
 * audience)
 * @param maxConcurrentReviews how many tokens may be under review at once; a request that
 * would need one more is answered 503 at once rather than queued, so that a flood of
 * made-up tokens cannot take every request thread
 */
@Consistent
public record KubernetesAuthProperties(@DefaultValue("false") boolean enabled,
		@NotNull @DefaultValue("https://kubernetes.default.svc") URI apiServer,
		@NotNull @DefaultValue("/var/run/secrets/kubernetes.io/serviceaccount/token") Path serviceAccountTokenFile,
		@NotNull @DefaultValue("/var/run/secrets/kubernetes.io/serviceaccount/ca.crt") Path caFile,
		@NotNull @DefaultValue("") @Pattern(regexp = "^([a-z0-9]([-a-z0-9]{0,61}[a-z0-9])?)?$",
				message = "must be a Kubernetes namespace name") String namespace,
		@NotBlank @DefaultValue("slotkeeper.io") @Pattern(regexp = "^[a-z0-9.-]{1,253}$",
				message = "must be an API group name") String group,
		@NotBlank @DefaultValue("slots") @Pattern(regexp = "^[a-z0-9-]{1,63}$",
				message = "must be a resource name") String resource,
		@NotNull @DurationMin(seconds = 0) @DurationMax(minutes = 10) @DefaultValue("30s") Duration cacheTtl,
		@NotNull @DurationMin(millis = 100) @DurationMax(minutes = 1) @DefaultValue("5s") Duration timeout,
		@NotNull @DefaultValue List<@NotBlank String> audiences,
		@Min(1) @Max(24) @DefaultValue("8") int maxConcurrentReviews) implements CrossFieldChecked {

	/**
	 * Where the pod's namespace is written when {@link #namespace} is empty.
	 */
	public static final Path NAMESPACE_FILE = Path.of("/var/run/secrets/kubernetes.io/serviceaccount/namespace");

	/**
	 * Cluster sign-in off, every other setting at its default: for code that builds
	 * {@link ApiProperties} itself.
	 * @return the settings
	 */
	public static KubernetesAuthProperties disabled() {
		return new KubernetesAuthProperties(false, URI.create("https://kubernetes.default.svc"),
				Path.of("/var/run/secrets/kubernetes.io/serviceaccount/token"),
				Path.of("/var/run/secrets/kubernetes.io/serviceaccount/ca.crt"), "", "slotkeeper.io", "slots",
				Duration.ofSeconds(30), Duration.ofSeconds(5), List.of(), 8);
	}

	@Override
	public List<Violation> violations() {
		List<Violation> violations = new ArrayList<>();
		if (this.enabled && this.namespace.isEmpty() && !Files.isReadable(NAMESPACE_FILE)) {
			violations.add(new Violation("namespace",
					"must be set when enabled outside a pod (" + NAMESPACE_FILE + " is not there)"));
		}
		String scheme = this.apiServer.getScheme();
		if (!"https".equals(scheme) && !"http".equals(scheme)) {
			violations.add(new Violation("api-server", "must be an http or https URL"));
		}
		return violations;
	}

}
