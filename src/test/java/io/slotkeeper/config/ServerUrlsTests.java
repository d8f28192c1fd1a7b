package io.slotkeeper.config;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * What a PgJDBC URL names, as connectors are matched to it: every host with its port
 * (5432 unless said), in lower case, IPv6 in brackets; and its database, decoded.
 */
class ServerUrlsTests {

	@Test
	void everyHostOfAUrlIsNamedWithItsPortOrPostgresDefault() {
		assertThat(ServerUrls
			.endpoints("jdbc:postgresql://RBAC-db:5433,rbac-db-2,[fd00::5]:5434,[fd00::6]/postgres?ssl=1"))
			.containsExactly("rbac-db:5433", "rbac-db-2:5432", "[fd00::5]:5434", "[fd00::6]:5432");
		assertThat(ServerUrls.endpoints("jdbc:postgresql:orders")).as("no host").isEmpty();
	}

	@Test
	void anAliasOrAConnectorsHostIsNamedTheSameWay() {
		assertThat(ServerUrls.endpoint("PG.Prod.svc")).isEqualTo("pg.prod.svc:5432");
		assertThat(ServerUrls.endpoint("pg.prod.svc:6432")).isEqualTo("pg.prod.svc:6432");
		assertThat(ServerUrls.endpoint("[::1]")).isEqualTo("[::1]:5432");
	}

	@Test
	void theDatabaseIsDecodedAndAbsentWhenTheUrlNamesNone() {
		assertThat(ServerUrls.database("jdbc:postgresql://h:5432/orders%20db?sslmode=require")).contains("orders db");
		assertThat(ServerUrls.database(ServerUrls.forDatabase("jdbc:postgresql://h/postgres", "ünïcode-db")))
			.contains("ünïcode-db");
		assertThat(ServerUrls.database("jdbc:postgresql://h:5432/")).isEmpty();
		assertThat(ServerUrls.database("jdbc:postgresql://h:5432")).isEmpty();
	}

}
