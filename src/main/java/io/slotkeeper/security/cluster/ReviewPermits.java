package io.slotkeeper.security.cluster;

import java.util.concurrent.Semaphore;

/**
 * How many cluster tokens may be under review at once ({@code max-concurrent-reviews}):
 * half of the reviews are kept for tokens shaped like the cluster's, so that made-up ones
 * cannot hold them all; a token shaped like the cluster's may take a reserved review when
 * the others are taken, any other only those.
 */
final class ReviewPermits {

	private final Semaphore reviewing;

	private final Semaphore reserved;

	ReviewPermits(int maxConcurrentReviews) {
		int reservedReviews = maxConcurrentReviews / 2;
		this.reviewing = new Semaphore(maxConcurrentReviews - reservedReviews);
		this.reserved = new Semaphore(reservedReviews);
	}

	/**
	 * A review's permit, to be released when it ends.
	 * @param token the bearer token to review
	 * @return the permit, {@code null} when none is free for it
	 */
	Semaphore take(String token) {
		if (looksLikeClusters(token) && this.reserved.tryAcquire()) {
			return this.reserved;
		}
		return this.reviewing.tryAcquire() ? this.reviewing : null;
	}

	/**
	 * Whether a token is shaped like one the cluster issues: a JWT (a service account's,
	 * a projected or an OIDC token: three base64url parts, the first a JSON header) or an
	 * OpenShift OAuth access token ({@code sha256~}).
	 * @param token the bearer token
	 * @return whether it may take a reserved review
	 */
	static boolean looksLikeClusters(String token) {
		if (token.startsWith("sha256~") && token.length() > "sha256~".length()) {
			return true;
		}
		String[] parts = token.split("\\.", -1);
		if (parts.length != 3 || !parts[0].startsWith("eyJ")) {
			return false;
		}
		for (String part : parts) {
			if (part.isEmpty() || !part.matches("[A-Za-z0-9_-]+")) {
				return false;
			}
		}
		return true;
	}

}
