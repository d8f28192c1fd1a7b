package io.slotkeeper.healing;

import java.time.Duration;
import java.time.Instant;

import org.junit.jupiter.api.Test;

import io.slotkeeper.fleet.Fleet;
import io.slotkeeper.testbed.PostgresServer;
import io.slotkeeper.testbed.PostgresTestBed;

import static io.slotkeeper.testbed.TestTargets.fleet;
import static io.slotkeeper.testbed.TestTargets.target;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Heal attempts are counted in the target's own database, so that a restarted instance or
 * a new owner honours the hourly budget its predecessor spent; where the role may not
 * keep the table, in memory, and it says so.
 */
class HealLedgerTests {

	private final PostgresServer server = PostgresTestBed.shared();

	@Test
	void aNewOwnerCountsTheAttemptsItsPredecessorMade() {
		String database = this.server.createDatabase();
		Instant now = Instant.now();
		try (Fleet first = fleet(target("orders", this.server, database));
				Fleet next = fleet(target("orders", this.server, database))) {
			HealLedger before = HealLedger.inTargets();
			before.record(first.get("orders"), "cdc", now.minus(Duration.ofMinutes(90)), true);
			before.record(first.get("orders"), "cdc", now.minus(Duration.ofMinutes(20)), true);
			before.record(first.get("orders"), "cdc", now.minus(Duration.ofMinutes(5)), false);
			before.record(first.get("orders"), "other", now, true);
			HealLedger after = HealLedger.inTargets();
			assertThat(after.attempts(next.get("orders"), "cdc", now)).as("two within the hour").isEqualTo(2);
			assertThat(after.inMemoryBecause("orders")).isNull();
			assertThat(this.server.queryForString(database, "SELECT count(*) FROM " + HealLedger.TABLE)).isEqualTo("4");
		}
	}

	@Test
	void theBudgetSurvivesARestartUnderAPublicationForAllTables() {
		String database = this.server.createDatabase();
		// What Debezium's default publication.autocreate.mode=all_tables makes: deletes
		// need a replica identity.
		this.server.execute(database, "CREATE PUBLICATION dbz_publication FOR ALL TABLES");
		Instant now = Instant.now();
		try (Fleet first = fleet(target("orders", this.server, database));
				Fleet restarted = fleet(target("orders", this.server, database))) {
			HealLedger before = HealLedger.inTargets();
			before.record(first.get("orders"), "cdc", now.minus(Duration.ofMinutes(3)), true);
			before.record(first.get("orders"), "cdc", now.minus(Duration.ofMinutes(2)), false);
			assertThat(before.inMemoryBecause("orders")).isNull();
			HealLedger after = HealLedger.inTargets();
			assertThat(after.attempts(restarted.get("orders"), "cdc", now)).as("counted in the database").isEqualTo(2);
		}
	}

	@Test
	void aFailedWriteIsCountedInMemoryAndSaidUntilTheNextOneSucceeds() {
		String database = this.server.createDatabase();
		Instant now = Instant.now();
		try (Fleet fleet = fleet(target("orders", this.server, database))) {
			HealLedger ledger = HealLedger.inTargets();
			ledger.record(fleet.get("orders"), "cdc", now, true);
			this.server.execute(database, "ALTER TABLE " + HealLedger.TABLE + " ADD CHECK (slot <> 'refused')");
			ledger.record(fleet.get("orders"), "refused", now, true);
			assertThat(ledger.inMemoryBecause("orders")).contains("memory only").contains("23514");
			assertThat(ledger.attempts(fleet.get("orders"), "refused", now)).as("kept in memory").isEqualTo(1);
			ledger.record(fleet.get("orders"), "cdc", now, true);
			assertThat(ledger.inMemoryBecause("orders")).isNull();
			assertThat(ledger.attempts(fleet.get("orders"), "cdc", now)).isEqualTo(2);
		}
	}

	@Test
	void aRoleThatMayNotKeepTheTableCountsInMemoryAndSaysWhy() {
		String database = this.server.createDatabase();
		String role = "nocreate_" + database;
		this.server.execute(database, "CREATE ROLE " + role + " LOGIN PASSWORD 'pw'",
				"REVOKE CREATE ON SCHEMA public FROM PUBLIC");
		Instant now = Instant.now();
		try (Fleet fleet = fleet(target("orders", this.server.jdbcUrl(database), "username", role, "password", "pw"))) {
			HealLedger ledger = HealLedger.inTargets();
			ledger.record(fleet.get("orders"), "cdc", now, true);
			assertThat(ledger.attempts(fleet.get("orders"), "cdc", now)).isEqualTo(1);
			assertThat(ledger.inMemoryBecause("orders")).contains("memory only")
				.contains(HealLedger.TABLE)
				.contains("permission denied for database")
				.contains("GRANT CONNECT, CREATE ON DATABASE " + database + " TO " + role)
				.doesNotContain("REPLICATION");
		}
	}

}
