package io.slotkeeper.outage;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Why the WAL limit may not be raised, in words that name the GRANT to give: per version,
 * per privilege, and a value ALTER SYSTEM cannot override.
 */
class KeepSizePrivilegesTests {

	@Test
	void aRoleWithBothPrivilegesOnAValueFromAConfigurationFileMayRaiseIt() {
		assertThat(new KeepSizePrivileges(true, true, 17, "configuration file", null, "app").refusal("keeper"))
			.isNull();
		assertThat(new KeepSizePrivileges(true, true, 13, "configuration file", "/pg/postgresql.conf", "app")
			.refusal("keeper")).isNull();
	}

	@Test
	void theRefusalNamesTheGrantForTheServersVersion() {
		assertThat(new KeepSizePrivileges(false, true, 15, "configuration file", null, "app").refusal("keeper"))
			.isEqualTo("role keeper may not ALTER SYSTEM max_slot_wal_keep_size (GRANT ALTER SYSTEM ON PARAMETER"
					+ " max_slot_wal_keep_size TO keeper)");
		assertThat(new KeepSizePrivileges(false, true, 14, "configuration file", null, "app").refusal("keeper"))
			.isEqualTo("role keeper may not ALTER SYSTEM max_slot_wal_keep_size (before PostgreSQL 15 only a superuser"
					+ " may)");
		assertThat(new KeepSizePrivileges(true, false, 17, "configuration file", null, "app").refusal("keeper"))
			.isEqualTo(
					"role keeper may not call pg_reload_conf() (GRANT EXECUTE ON FUNCTION pg_reload_conf() TO keeper,"
							+ " in database app)");
	}

	@Test
	void aValueFromTheCommandLineIsRefusedAsAlterSystemCannotOverrideIt() {
		assertThat(new KeepSizePrivileges(true, true, 17, "command line", null, "app").refusal("keeper"))
			.isEqualTo("its value comes from the command line, which ALTER SYSTEM cannot override");
	}

	@Test
	void theValueIsPutBackWithResetWhereItKnowsItCameFromPostgresqlConfOrWasTheDefault() {
		assertThat(
				new KeepSizePrivileges(true, true, 17, "configuration file", "/pg/postgresql.conf", "app").restore(64))
			.isEqualTo("ALTER SYSTEM RESET max_slot_wal_keep_size");
		assertThat(new KeepSizePrivileges(true, true, 17, "default", null, "app").restore(64))
			.isEqualTo("ALTER SYSTEM RESET max_slot_wal_keep_size");
		assertThat(new KeepSizePrivileges(true, true, 17, "configuration file", "/pg/postgresql.auto.conf", "app")
			.restore(64)).isEqualTo("ALTER SYSTEM SET max_slot_wal_keep_size = '64MB'");
		assertThat(new KeepSizePrivileges(true, true, 17, "configuration file", "/pg/postgresql.conf", "app")
			.restoreNote("keeper")).isEmpty();
	}

	@Test
	void whereTheRoleMayNotSeeTheFileTheValueIsSetBackAndTheNoteSaysWhatThatLeaves() {
		KeepSizePrivileges unsure = new KeepSizePrivileges(true, true, 17, "configuration file", null, "app");
		assertThat(unsure.restore(64)).isEqualTo("ALTER SYSTEM SET max_slot_wal_keep_size = '64MB'");
		assertThat(unsure.restoreNote("keeper")).isEqualTo("; role keeper may not see whether the value came from"
				+ " postgresql.conf or postgresql.auto.conf (GRANT pg_read_all_settings TO keeper lets it), so the"
				+ " put-back writes it into postgresql.auto.conf: if it came from postgresql.conf, ALTER SYSTEM RESET"
				+ " max_slot_wal_keep_size removes it from there");
	}

}
