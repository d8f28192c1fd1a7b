package io.slotkeeper.testbed;

import java.util.List;
import java.util.Map;

/**
 * An embedded server with {@code ssl=on}, its certificate from a {@link TestPki} made for
 * the test, and a role {@value #ROLE} that {@code pg_hba.conf} admits only over TLS
 * ({@code hostssl}; a plain connection is rejected). The test bed's own sessions (the
 * superuser) connect as before.
 *
 * @param server the server
 * @param pki its certificates
 */
public record TlsServer(PostgresServer server, TestPki pki) {

	/**
	 * The role that may connect only over TLS.
	 */
	public static final String ROLE = "tlsonly";

	/**
	 * Starts the server with a database for the role.
	 * @param database the database to create
	 * @return the server, stopped when the JVM exits
	 */
	public static TlsServer start(String database) {
		TestPki pki = TestPki.create();
		EmbeddedPostgresServer server = new EmbeddedPostgresServer(withLogicalDecoding(Map.of("ssl", "on",
				"ssl_cert_file", pki.serverCertificate().toString(), "ssl_key_file", pki.serverKey().toString())));
		Runtime.getRuntime().addShutdownHook(new Thread(server::close));
		server.execute("postgres", "CREATE ROLE " + ROLE + " LOGIN REPLICATION",
				"CREATE DATABASE " + database + " OWNER " + ROLE);
		server.prependHostBasedAuthentication(
				List.of("hostssl all " + ROLE + " 127.0.0.1/32 trust", "hostssl all " + ROLE + " ::1/128 trust",
						"host all " + ROLE + " 127.0.0.1/32 reject", "host all " + ROLE + " ::1/128 reject"));
		return new TlsServer(server, pki);
	}

	/**
	 * A JDBC URL to the server's database.
	 * @param host the host name to connect to ({@code localhost} is the one the
	 * certificate names)
	 * @param database the database
	 * @param parameters PgJDBC parameters, for example
	 * {@code sslmode=verify-full&sslrootcert=/…/ca.crt}
	 * @return the URL
	 */
	public String url(String host, String database, String parameters) {
		return "jdbc:postgresql://" + host + ":" + this.server.port() + "/" + database + "?" + parameters;
	}

	private static Map<String, String> withLogicalDecoding(Map<String, String> settings) {
		Map<String, String> all = new java.util.HashMap<>(PostgresServer.LOGICAL_DECODING);
		all.putAll(settings);
		return all;
	}

}
