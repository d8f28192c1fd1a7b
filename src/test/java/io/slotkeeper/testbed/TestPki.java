package io.slotkeeper.testbed;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.GeneralSecurityException;
import java.security.Key;
import java.security.KeyStore;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * A throwaway PKI made with the JDK's {@code keytool}: a CA, a server certificate it
 * signs for {@code localhost} only, and a second CA that signed nothing, as PEM files
 * PostgreSQL and PgJDBC read.
 *
 * @param ca the CA's certificate
 * @param otherCa a CA that did not sign the server's certificate
 * @param serverCertificate the server's certificate (subject alternative name
 * {@code DNS:localhost})
 * @param serverKey the server's private key, PKCS#8, readable by its owner only
 */
public record TestPki(Path ca, Path otherCa, Path serverCertificate, Path serverKey) {

	private static final String PASSWORD = "changeit";

	/**
	 * Makes the PKI in a new temporary directory.
	 * @return its files
	 */
	public static TestPki create() {
		try {
			Path directory = Files.createTempDirectory("slotkeeper-pki-");
			directory.toFile().deleteOnExit();
			keytool(directory, "-genkeypair", "-alias", "ca", "-keyalg", "RSA", "-keysize", "2048", "-dname",
					"CN=slot-keeper test CA", "-ext", "bc:c", "-validity", "3", "-keystore", "ca.p12");
			keytool(directory, "-genkeypair", "-alias", "other", "-keyalg", "RSA", "-keysize", "2048", "-dname",
					"CN=some other CA", "-ext", "bc:c", "-validity", "3", "-keystore", "other.p12");
			keytool(directory, "-genkeypair", "-alias", "server", "-keyalg", "RSA", "-keysize", "2048", "-dname",
					"CN=localhost", "-validity", "3", "-keystore", "server.p12");
			keytool(directory, "-certreq", "-alias", "server", "-keystore", "server.p12", "-file", "server.csr");
			keytool(directory, "-gencert", "-alias", "ca", "-keystore", "ca.p12", "-infile", "server.csr", "-outfile",
					"server.crt", "-rfc", "-ext", "san=dns:localhost", "-validity", "3");
			keytool(directory, "-exportcert", "-alias", "ca", "-keystore", "ca.p12", "-rfc", "-file", "ca.crt");
			keytool(directory, "-exportcert", "-alias", "other", "-keystore", "other.p12", "-rfc", "-file",
					"other.crt");
			Path key = directory.resolve("server.key");
			Files.writeString(key, pem(privateKey(directory.resolve("server.p12"))), StandardCharsets.US_ASCII);
			Files.setPosixFilePermissions(key, PosixFilePermissions.fromString("rw-------"));
			return new TestPki(directory.resolve("ca.crt"), directory.resolve("other.crt"),
					directory.resolve("server.crt"), key);
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
	}

	private static void keytool(Path directory, String... arguments) throws IOException {
		List<String> command = new ArrayList<>();
		command.add(Path.of(System.getProperty("java.home"), "bin", "keytool").toString());
		command.addAll(List.of(arguments));
		command.addAll(List.of("-storetype", "PKCS12", "-storepass", PASSWORD, "-keypass", PASSWORD, "-noprompt"));
		Process process = new ProcessBuilder(command).directory(directory.toFile()).redirectErrorStream(true).start();
		String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
		try {
			if (!process.waitFor(60, TimeUnit.SECONDS) || process.exitValue() != 0) {
				throw new IllegalStateException("keytool " + String.join(" ", arguments) + " failed: " + output);
			}
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			throw new IllegalStateException(ex);
		}
	}

	private static Key privateKey(Path keystore) throws IOException {
		try (InputStream in = Files.newInputStream(keystore)) {
			KeyStore store = KeyStore.getInstance("PKCS12");
			store.load(in, PASSWORD.toCharArray());
			return store.getKey("server", PASSWORD.toCharArray());
		}
		catch (GeneralSecurityException ex) {
			throw new IllegalStateException(ex);
		}
	}

	private static String pem(Key key) {
		return "-----BEGIN PRIVATE KEY-----\n"
				+ Base64.getMimeEncoder(64, "\n".getBytes(StandardCharsets.US_ASCII)).encodeToString(key.getEncoded())
				+ "\n-----END PRIVATE KEY-----\n";
	}

}
