package io.slotkeeper.sessions;

import java.security.cert.CertificateExpiredException;
import java.security.cert.CertificateNotYetValidException;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * TLS failures to a target in an operator's words: which check failed and what to change,
 * instead of the JDK's
 * {@code PKIX path building failed: sun.security.provider.certpath…}.
 */
final class TlsFailures {

	private static final Pattern HOST = Pattern.compile("The hostname (\\S+) could not be verified");

	private TlsFailures() {
	}

	/**
	 * Explains a failure when it is about TLS.
	 * @param failure the failure
	 * @param message its one-line message
	 * @return the explanation, {@code null} when it is not a TLS failure
	 */
	static String explain(Throwable failure, String message) {
		for (Throwable cause = failure; cause != null; cause = cause.getCause()) {
			if (cause instanceof CertificateExpiredException || cause instanceof CertificateNotYetValidException) {
				return "TLS: the server's certificate is not valid now (" + cause.getMessage() + "): renew it";
			}
		}
		String all = chain(failure);
		Matcher host = HOST.matcher(all);
		if (host.find()) {
			return "TLS: the server's certificate does not name host " + host.group(1) + " of the URL; with "
					+ "sslmode=verify-full the URL must use a name the certificate was issued for";
		}
		if (all.contains("PKIX path building failed") || all.contains("unable to find valid certification path")) {
			return "TLS: the server's certificate is not signed by a CA slot-keeper trusts; sslrootcert in the URL "
					+ "must name the CA that signed it (PKIX path building failed)";
		}
		if (all.contains("The server does not support SSL")) {
			return "TLS: the server does not accept TLS (ssl=off) but the URL's sslmode asks for it";
		}
		if (all.contains("SSL root certificate file")) {
			return "TLS: " + message + " (is the caBundle ConfigMap mounted at the path sslrootcert names?)";
		}
		// PostgreSQL 14 and later say "no encryption", 13 says "SSL off".
		if (message.startsWith("pg_hba.conf rejects connection")
				&& (message.endsWith("no encryption") || message.endsWith("SSL off"))) {
			return "TLS: the server admits this role only over TLS (" + message + "); add sslmode=verify-full and "
					+ "sslrootcert to the URL";
		}
		return null;
	}

	private static String chain(Throwable failure) {
		StringBuilder all = new StringBuilder();
		for (Throwable cause = failure; cause != null; cause = cause.getCause()) {
			all.append(cause.getMessage()).append('\n');
		}
		return all.toString();
	}

}
