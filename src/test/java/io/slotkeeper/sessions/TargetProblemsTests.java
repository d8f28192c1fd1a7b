package io.slotkeeper.sessions;

import java.sql.SQLException;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import io.slotkeeper.problem.ProblemException;
import io.slotkeeper.problem.ProblemKind;

import static io.slotkeeper.testbed.TestTargets.fleet;
import static io.slotkeeper.testbed.TestTargets.target;
import static org.assertj.core.api.Assertions.assertThat;
import io.slotkeeper.fleet.Target;

class TargetProblemsTests {

	private final Target target = fleet(target("orders", "jdbc:postgresql://db/orders", "username", "keeper",
			"replicas[0].name", "r1", "replicas[0].url", "jdbc:postgresql://r1/orders"))
		.get("orders");

	@ParameterizedTest(name = "SQLState {0} is {1}")
	@CsvSource({ "42501, INSUFFICIENT_PRIVILEGE", "55P03, CHANGE_IN_PROGRESS", "55006, CONFLICT", "42710, CONFLICT",
			"42704, SLOT_NOT_FOUND", "0A000, NOT_SUPPORTED", "08001, TARGET_UNAVAILABLE", "08006, TARGET_UNAVAILABLE",
			"57P01, TARGET_UNAVAILABLE", "57014, TARGET_TIMEOUT", "22012, DATABASE_ERROR" })
	void eachSqlStateBecomesTheProblemOperatorsExpect(String sqlState, ProblemKind kind) {
		ProblemException problem = TargetProblems.of(this.target.primary(), new SQLException("it failed", sqlState));
		assertThat(problem.kind()).isEqualTo(kind);
		assertThat(problem.properties()).containsEntry("sqlState", sqlState)
			.containsEntry("target", "orders")
			.doesNotContainKey("node");
	}

	@Test
	void aFailureWithoutSqlStateIsADatabaseError() {
		assertThat(TargetProblems.of(this.target.primary(), new SQLException("odd")).kind())
			.isEqualTo(ProblemKind.DATABASE_ERROR);
	}

	@Test
	void aReplicasProblemNamesTheReplicaAndItsTarget() {
		ProblemException problem = TargetProblems.of(this.target.nodes().named("r1"),
				new SQLException("refused", "08001"));
		assertThat(problem.getMessage()).isEqualTo("Replica 'r1' of target 'orders' is unavailable: refused");
		assertThat(problem.properties()).containsEntry("target", "orders").containsEntry("node", "r1");
	}

	@Test
	void aMissingPrivilegeSaysWhichRoleNeedsReplication() {
		ProblemException problem = TargetProblems.of(this.target.primary(),
				new SQLException("permission denied to use replication slots", "42501"));
		assertThat(problem.getMessage()).isEqualTo("permission denied to use replication slots. The role of target "
				+ "'orders' needs the REPLICATION attribute to manage slots: ALTER ROLE keeper REPLICATION;");
	}

	@Test
	void aMissingPrivilegeOtherThanReplicationIsNamedForWhatItIs() {
		assertThat(TargetProblems
			.of(this.target.primary(), new SQLException("permission denied for database orders", "42501"))
			.getMessage())
			.doesNotContain("REPLICATION")
			.endsWith("needs CONNECT on database orders to log in, and CREATE on it for slot-keeper's own schema (heal"
					+ " ledger, handovers, lineage, WAL-limit raise): GRANT CONNECT, CREATE ON DATABASE orders TO"
					+ " keeper;");
		assertThat(TargetProblems
			.of(this.target.primary(), new SQLException("permission denied for schema slotkeeper", "42501"))
			.getMessage()).endsWith("GRANT USAGE ON SCHEMA slotkeeper TO keeper;");
		assertThat(TargetProblems
			.of(this.target.primary(),
					new SQLException("permission denied for function" + " pg_log_standby_snapshot", "42501"))
			.getMessage()).endsWith("GRANT EXECUTE ON FUNCTION pg_log_standby_snapshot TO keeper;");
		assertThat(TargetProblems.grantFor("must be superuser or replication role to use replication slots", "keeper"))
			.startsWith("the REPLICATION attribute");
		assertThat(TargetProblems.grantFor(
				"permission denied to insert into the signal table t: GRANT INSERT ON t TO" + " the role", "keeper"))
			.as("a message that names its remedy")
			.isNull();
	}

}
