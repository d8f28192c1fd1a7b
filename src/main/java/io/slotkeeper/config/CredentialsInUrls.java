package io.slotkeeper.config;

import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;

/**
 * Refuses URLs that carry a credential: a {@code password} parameter (PgJDBC reads one
 * from the query) or a {@code user:password@} part. Such a URL would show the secret
 * wherever the URL is shown; the record's {@code password}, which never prints, is the
 * place for it. It runs after binding and names the properties only: bean validation's
 * report would print the offending value, the secret with it.
 */
final class CredentialsInUrls {

	private static final Pattern PASSWORD_PARAMETER = Pattern.compile("[?&]password=", Pattern.CASE_INSENSITIVE);

	private CredentialsInUrls() {
	}

	static void refuse(SlotKeeperProperties properties) {
		List<String> offending = new ArrayList<>();
		for (int t = 0; t < properties.targets().size(); t++) {
			TargetProperties target = properties.targets().get(t);
			String at = "slotkeeper.targets[" + t + "].";
			check(at + "url", target.url(), offending);
			replicas(at, target.replicas(), offending);
			connectors(at, target.slots(), offending);
		}
		for (int i = 0; i < properties.servers().size(); i++) {
			ServerProperties server = properties.servers().get(i);
			String at = "slotkeeper.servers[" + i + "].";
			check(at + "url", server.url(), offending);
			replicas(at, server.replicas(), offending);
			for (int o = 0; o < server.overrides().size(); o++) {
				connectors(at + "overrides[" + o + "].", server.overrides().get(o).slots(), offending);
			}
		}
		List<ConnectorDiscoveryProperties.KafkaConnectProperties> clusters = properties.connectorDiscovery()
			.kafkaConnect();
		for (int k = 0; k < clusters.size(); k++) {
			check("slotkeeper.connector-discovery.kafka-connect[" + k + "].url", clusters.get(k).url(), offending);
		}
		if (!offending.isEmpty()) {
			throw new IllegalStateException(String.join(", ", offending) + " must not carry credentials"
					+ " (user:password@ or password=): set the username and password properties beside them instead,"
					+ " which are never logged or shown.");
		}
	}

	static boolean carriesCredentials(String url) {
		if (url == null) {
			return false;
		}
		int scheme = url.indexOf("//");
		String authority = (scheme < 0) ? "" : url.substring(scheme + 2).split("[/?#]", 2)[0];
		return authority.contains("@") || PASSWORD_PARAMETER.matcher(url).find();
	}

	private static void replicas(String at, List<ReplicaProperties> replicas, List<String> offending) {
		for (int r = 0; r < replicas.size(); r++) {
			check(at + "replicas[" + r + "].url", replicas.get(r).url(), offending);
		}
	}

	private static void connectors(String at, List<SlotPolicyProperties> slots, List<String> offending) {
		for (int s = 0; s < slots.size(); s++) {
			ConnectorProperties connector = slots.get(s).connector();
			if (connector != null) {
				check(at + "slots[" + s + "].connector.url", connector.url(), offending);
			}
		}
	}

	private static void check(String property, String url, List<String> offending) {
		if (carriesCredentials(url)) {
			offending.add(property);
		}
	}

}
