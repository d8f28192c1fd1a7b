package io.slotkeeper.discovery;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import io.slotkeeper.config.ConnectorDiscoveryProperties;
import io.slotkeeper.config.ConnectorProperties;
import io.slotkeeper.connect.FoundConnector;
import io.slotkeeper.fleet.Fleet;

import static io.slotkeeper.testbed.TestTargets.bind;
import static io.slotkeeper.testbed.TestTargets.fleet;
import static io.slotkeeper.testbed.TestTargets.target;
import static org.assertj.core.api.Assertions.assertThat;

class ConnectorMatchesTests {

	private static final ConnectorDiscoveryProperties DISCOVERY = bind(ConnectorDiscoveryProperties.class,
			"strimzi-namespaces", "team-a");

	// slot-keeper runs in team-a; its target names the database by the short name of
	// team-a's Service.
	private final Fleet fleet = fleet(target("app", "jdbc:postgresql://postgres/app"),
			target("other", "jdbc:postgresql://postgres.team-c.svc.cluster.local/app"));

	@AfterEach
	void close() {
		this.fleet.close();
	}

	private static FoundConnector strimzi(String namespace, String name, String host, String slot) {
		ConnectorProperties reach = bind(ConnectorProperties.class, "strimzi.namespace", namespace, "strimzi.name",
				name);
		return new FoundConnector("strimzi " + namespace, reach,
				Map.of("connector.class", "io.debezium.connector.postgresql.PostgresConnector", "database.hostname",
						host, "database.dbname", "app", "slot.name", slot),
				"RUNNING");
	}

	private List<ConnectorMatch> matches(List<FoundConnector> found) {
		return ConnectorMatches.of(this.fleet.all(), List.of(), found, DISCOVERY, "team-a").all();
	}

	@Test
	void aShortHostNameIsTheServiceOfTheNamespaceItIsResolvedIn() {
		List<ConnectorMatch> matches = matches(List.of(strimzi("team-b", "b-cdc", "postgres", "b_slot"),
				strimzi("team-a", "a-cdc", "postgres", "a_slot"),
				strimzi("team-b", "b-full", "postgres.team-a.svc.cluster.local", "full_slot"),
				strimzi("team-b", "c-cdc", "postgres.team-c", "c_slot")));
		assertThat(matches.get(0).target()).as("team-b's postgres is not team-a's").isNull();
		assertThat(matches.get(0).problem()).contains("postgres.team-b:5432");
		assertThat(matches.get(1)).extracting(ConnectorMatch::target, ConnectorMatch::used)
			.containsExactly("app", true);
		assertThat(matches.get(2)).extracting(ConnectorMatch::target, ConnectorMatch::used)
			.containsExactly("app", true);
		assertThat(matches.get(3)).extracting(ConnectorMatch::target, ConnectorMatch::used)
			.containsExactly("other", true);
	}

	@Test
	void twoConnectorsOfOneSlotAreUsedByNeitherWhateverTheOrder() {
		List<FoundConnector> found = new ArrayList<>(List.of(strimzi("team-a", "first", "postgres", "shared"),
				strimzi("team-a", "second", "postgres", "shared")));
		for (int order = 0; order < 2; order++) {
			List<ConnectorMatch> matches = matches(found);
			assertThat(matches).allSatisfy((match) -> {
				assertThat(match.used()).isFalse();
				assertThat(match.problem())
					.isEqualTo("slot 'shared' is consumed by connectors first, second: none of" + " them is used");
			});
			Collections.reverse(found);
		}
	}

	@Test
	void aConnectorThatIsTwoTargetsIsUsedByNone() {
		try (Fleet twice = fleet(target("app", "jdbc:postgresql://postgres/app"),
				target("app-again", "jdbc:postgresql://postgres.team-a.svc/app"))) {
			List<ConnectorMatch> matches = ConnectorMatches
				.of(twice.all(), List.of(), List.of(strimzi("team-a", "a-cdc", "postgres", "a_slot")), DISCOVERY,
						"team-a")
				.all();
			assertThat(matches).singleElement().satisfies((match) -> {
				assertThat(match.used()).isFalse();
				assertThat(match.problem()).contains("is more than one target (app, app-again)");
			});
		}
	}

	@Test
	void outsideAPodShortNamesAreComparedAsTheyAreAndAServicesLongFormsAsOne() {
		try (Fleet outside = fleet(target("app", "jdbc:postgresql://pg.prod.svc/app"))) {
			List<ConnectorMatch> matches = ConnectorMatches.of(outside.all(), List.of(),
					List.of(strimzi("kafka", "long", "pg.prod.svc.cluster.local", "long_slot"),
							strimzi("kafka", "short", "pg", "short_slot")),
					DISCOVERY, null)
				.all();
			assertThat(matches.get(0)).extracting(ConnectorMatch::target, ConnectorMatch::used)
				.containsExactly("app", true);
			assertThat(matches.get(1).target()).isNull();
		}
	}

	@Test
	void aRestWorkersShortHostIsResolvedInItsServicesNamespace() {
		assertThat(ServiceNames.namespaceOf("http://connect.team-b:8083", "team-a")).isEqualTo("team-b");
		assertThat(ServiceNames.namespaceOf("http://connect:8083", "team-a")).isEqualTo("team-a");
		assertThat(ServiceNames.namespaceOf("http://10.0.0.5:8083", "team-a")).isNull();
		assertThat(ServiceNames.qualified("postgres:5432", null)).as("outside a pod").isEqualTo("postgres:5432");
		assertThat(ServiceNames.qualified("db.example.com:5432", "team-a")).isEqualTo("db.example.com:5432");
		assertThat(ServiceNames.qualified("10.1.2.3:5432", "team-a")).isEqualTo("10.1.2.3:5432");
		assertThat(ServiceNames.qualified("localhost:5432", "team-a")).isEqualTo("localhost:5432");
	}

}
