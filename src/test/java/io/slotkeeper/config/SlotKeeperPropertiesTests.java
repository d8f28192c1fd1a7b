package io.slotkeeper.config;

import java.time.Duration;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import org.springframework.beans.factory.BeanFactory;
import org.springframework.beans.factory.support.DefaultListableBeanFactory;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.autoconfigure.context.ConfigurationPropertiesAutoConfiguration;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.boot.diagnostics.FailureAnalysis;
import org.springframework.boot.diagnostics.FailureAnalyzer;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.boot.validation.autoconfigure.ValidationAutoConfiguration;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Import;
import org.springframework.core.env.Environment;
import org.springframework.core.env.StandardEnvironment;
import org.springframework.core.env.SystemEnvironmentPropertySource;
import org.springframework.core.io.support.SpringFactoriesLoader;

import static org.assertj.core.api.Assertions.assertThat;

class SlotKeeperPropertiesTests {

	private static final String VALID_HASH = "a".repeat(64);

	private final ApplicationContextRunner runner = new ApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(ValidationAutoConfiguration.class,
				ConfigurationPropertiesAutoConfiguration.class))
		.withUserConfiguration(PropertiesOnly.class)
		.withPropertyValues("slotkeeper.targets[0].name=orders",
				"slotkeeper.targets[0].url=jdbc:postgresql://db:5432/orders");

	@Test
	void defaultsApplyToEveryHeartbeatAndConnectionSetting() {
		this.runner.run((context) -> {
			assertThat(context).hasNotFailed();
			HeartbeatProperties heartbeat = context.getBean(SlotKeeperProperties.class).targets().get(0).heartbeat();
			assertThat(heartbeat.enabled()).isTrue();
			assertThat(heartbeat.interval()).isEqualTo(Duration.ofSeconds(10));
			assertThat(heartbeat.mode()).isEqualTo(HeartbeatMode.MESSAGE);
			assertThat(heartbeat.transactional()).isTrue();
			assertThat(heartbeat.prefix()).isEqualTo("slotkeeper_heartbeat");
			assertThat(heartbeat.content()).isEmpty();
			assertThat(heartbeat.table()).isEqualTo("public.slotkeeper_heartbeat");
			assertThat(heartbeat.createTable()).isFalse();
			ConnectionProperties connection = context.getBean(SlotKeeperProperties.class).targets().get(0).connection();
			assertThat(connection.statementTimeout()).isEqualTo(Duration.ofSeconds(5));
			assertThat(connection.connectTimeout()).isEqualTo(Duration.ofSeconds(5));
			assertThat(heartbeat.backoff())
				.isEqualTo(new BackoffProperties(Duration.ofSeconds(1), Duration.ofSeconds(60), 0.25));
			assertThat(heartbeat.unhealthyAfter()).isEqualTo(3);
		});
	}

	@Test
	void noTargetsIsAllowed() {
		new ApplicationContextRunner()
			.withConfiguration(AutoConfigurations.of(ValidationAutoConfiguration.class,
					ConfigurationPropertiesAutoConfiguration.class))
			.withUserConfiguration(PropertiesOnly.class)
			.run((context) -> assertThat(context.getBean(SlotKeeperProperties.class).targets()).isEmpty());
	}

	@ParameterizedTest(name = "{0}={1} is refused naming {2}")
	@CsvSource(delimiter = '|', value = { "slotkeeper.targets[0].name | Orders | slotkeeper.targets[0].name",
			"slotkeeper.targets[0].name | -orders | slotkeeper.targets[0].name",
			"slotkeeper.targets[0].url | http://db/orders | slotkeeper.targets[0].url",
			"slotkeeper.targets[0].heartbeat.interval | 0s | slotkeeper.targets[0].heartbeat.interval",
			"slotkeeper.targets[0].heartbeat.backoff.min | 2m | slotkeeper.targets[0].heartbeat.backoff.min",
			"slotkeeper.targets[0].heartbeat.backoff.jitter | 2 | slotkeeper.targets[0].heartbeat.backoff.jitter",
			"slotkeeper.targets[0].heartbeat.mode | query | slotkeeper.targets[0].heartbeat.query",
			"slotkeeper.targets[0].heartbeat.table | public.\"x\";drop | slotkeeper.targets[0].heartbeat.table",
			"slotkeeper.targets[0].heartbeat.unhealthy-after | 0 | slotkeeper.targets[0].heartbeat.unhealthyAfter",
			"slotkeeper.targets[0].connection.statement-timeout | 0ms | slotkeeper.targets[0].connection.statementTimeout",
			"slotkeeper.targets[0].connection.connect-timeout | 0ms | slotkeeper.targets[0].connection.connectTimeout",
			"slotkeeper.targets[0].heartbeat.statement-timeout | 5s | slotkeeper.targets[0].heartbeat.statement-timeout",
			"slotkeeper.targets[0].heartbeat.intervall | 5s | slotkeeper.targets[0].heartbeat.intervall",
			"slotkeeper.targets[0].heartbeat.backoff.mini | 5s | slotkeeper.targets[0].heartbeat.backoff.mini",
			"slotkeeper.targets[0].heartbeat.interval.seconds | 5 | slotkeeper.targets[0].heartbeat.interval.seconds",
			"slotkeeper.api.tokenz | x | slotkeeper.api.tokenz",
			"slotkeeper.targets[0].url | jdbc:postgresql://db/orders?user=k&password=leak | slotkeeper.targets[0].url",
			"slotkeeper.targets[0].url | jdbc:postgresql://db/orders?PASSWORD=leak | slotkeeper.targets[0].url",
			"slotkeeper.targets[0].replicas[0].url | jdbc:postgresql://r1/orders?password=leak | slotkeeper.targets[0].replicas[0].url",
			"slotkeeper.targets[0].slots[0].connector.url | http://connect:s3cret@connect:8083 | slotkeeper.targets[0].slots[0].connector.url",
			"slotkeeper.targets[0].connection.statement-timeout | 21d | slotkeeper.targets[0].connection.statementTimeout",
			"slotkeeper.targets[0].connection.connect-timeout | 1h | slotkeeper.targets[0].connection.connectTimeout",
			"slotkeeper.targets[0].heartbeat.interval | 2h | slotkeeper.targets[0].heartbeat.interval",
			"slotkeeper.targets[0].heartbeat.backoff.max | 30d | slotkeeper.targets[0].heartbeat.backoff.max",
			"slotkeeper.targets[0].slots-poll-interval | 2h | slotkeeper.targets[0].slotsPollInterval",
			"slotkeeper.targets[0].slots[0].connector.timeout | 1h | slotkeeper.targets[0].slots[0].connector.timeout",
			"slotkeeper.targets[0].heartbeat.enabled | false | slotkeeper.targets[0].slots[0].onLost",
			"slotkeeper.targets[0].slots[0].managed-by | patroni | slotkeeper.targets[0].slots[0].onLost",
			"slotkeeper.targets[0].slots[0].managed-by | pgbackrest | slotkeeper.targets[0].slots[0].managed-by",
			"slotkeeper.api.tokens[0].sha256 | not-a-hash | slotkeeper.api.tokens[0].sha256",
			"slotkeeper.api.kubernetes.enabled | true | slotkeeper.api.kubernetes.namespace",
			"slotkeeper.api.kubernetes.namespace | Not_A_Namespace | slotkeeper.api.kubernetes.namespace",
			"slotkeeper.api.kubernetes.api-server | ftp://kubernetes | slotkeeper.api.kubernetes.api-server",
			"slotkeeper.api.kubernetes.cache-ttl | 1h | slotkeeper.api.kubernetes.cacheTtl",
			"slotkeeper.api.kubernetes.timeout | 0s | slotkeeper.api.kubernetes.timeout",
			"slotkeeper.api.kubernetes.resource | Slots! | slotkeeper.api.kubernetes.resource",
			"slotkeeper.targets[0].slots[0].connector.strimzi.namespace | cdc | slotkeeper.targets[0].slots[0].connector.url",
			"slotkeeper.strimzi.api-version | v2 | slotkeeper.strimzi.apiVersion",
			"slotkeeper.strimzi.api-server | ftp://kubernetes | slotkeeper.strimzi.api-server",
			"slotkeeper.strimzi.timeout | 0s | slotkeeper.strimzi.timeout",
			"slotkeeper.targets[0].slots[0].on-outage.raise-keep-size-to | 0MB | slotkeeper.targets[0].slots[0].onOutage.raiseKeepSizeTo",
			"slotkeeper.targets[0].slots[0].on-outage.raise-keep-size-to | 1500KB | slotkeeper.targets[0].slots[0].onOutage.raiseKeepSizeTo",
			"slotkeeper.targets[0].slots[0].on-outage.raise-keep-size-to | 3000TB | slotkeeper.targets[0].slots[0].onOutage.raiseKeepSizeTo",
			"slotkeeper.targets[0].slots[0].on-outage.when-budget-below | 0s | slotkeeper.targets[0].slots[0].onOutage.whenBudgetBelow",
			"slotkeeper.targets[0].slots[0].on-outage.when-budget-below | 1h | slotkeeper.targets[0].slots[0].onOutage.raiseKeepSizeTo",
			"slotkeeper.targets[0].slots[0].resnapshot.tables | changed | slotkeeper.targets[0].slots[0].resnapshot.tables",
			"slotkeeper.targets[0].slots[0].resnapshot.tables | some | slotkeeper.targets[0].slots[0].resnapshot.tables",
			"slotkeeper.targets[0].slots[0].resnapshot.deletes | signal | slotkeeper.targets[0].slots[0].resnapshot.deletes",
			"slotkeeper.targets[0].slots[0].resnapshot.deletes | emit | slotkeeper.targets[0].slots[0].resnapshot.deletes",
			"slotkeeper.targets[0].slots[0].resnapshot.outbox-tables | public.outbox | slotkeeper.targets[0].slots[0].resnapshot.outboxTables",
			"slotkeeper.gap-journal.max-event-bytes | 2GB | slotkeeper.gapJournal.maxEventBytes",
			"slotkeeper.targets[0].slots[0].resnapshot.outbox-tables | outbox; DROP TABLE x | slotkeeper.targets[0].slots[0].resnapshot.outboxTables",
			"slotkeeper.targets[0].slots[0].resnapshot.update-columns | public.orders.updated_at | slotkeeper.targets[0].slots[0].resnapshot.updateColumns",
			"slotkeeper.targets[0].slots[0].resnapshot.update-columns | orders.updated_at; DROP TABLE x | slotkeeper.targets[0].slots[0].resnapshot.updateColumns",
			"slotkeeper.targets[0].slots[0].resnapshot.recheck-after | 0s | slotkeeper.targets[0].slots[0].resnapshot.recheckAfter",
			"slotkeeper.targets[0].slots[0].resnapshot.window-margin | 2d | slotkeeper.targets[0].slots[0].resnapshot.windowMargin" })
	void invalidValueStopsStartUpNamingTheProperty(String property, String value, String named) {
		this.runner
			.withPropertyValues("slotkeeper.targets[0].replicas[0].name=r1",
					"slotkeeper.targets[0].replicas[0].url=jdbc:postgresql://r1/orders",
					"slotkeeper.targets[0].slots[0].name=s", "slotkeeper.targets[0].slots[0].on-lost=recreate",
					"slotkeeper.targets[0].slots[0].connector.url=http://connect:8083",
					"slotkeeper.targets[0].slots[0].connector.name=orders-cdc")
			.withPropertyValues("slotkeeper.api.tokens[0].name=ci", "slotkeeper.api.tokens[0].role=operator",
					"slotkeeper.api.tokens[0].sha256=" + VALID_HASH, property + "=" + value)
			.run((context) -> {
				assertThat(context).hasFailed();
				assertThat(startUpMessage(context.getStartupFailure())).contains(named);
			});
	}

	@Test
	void aDebeziumSignalWithoutAConnectorNeedsItsTableAndCollectionsAndBadNamesAreRefused() {
		this.runner
			.withPropertyValues("slotkeeper.targets[0].slots[0].name=s",
					"slotkeeper.targets[0].slots[0].resnapshot.mode=debezium-signal")
			.run((context) -> assertThat(startUpMessage(context.getStartupFailure()))
				.contains("slotkeeper.targets[0].slots[0].resnapshot")
				.contains("needs signal-table and collections"));
		this.runner
			.withPropertyValues("slotkeeper.targets[0].slots[0].name=s",
					"slotkeeper.targets[0].slots[0].resnapshot.mode=debezium-signal",
					"slotkeeper.targets[0].slots[0].resnapshot.signal-table=public.signal; DROP TABLE x",
					"slotkeeper.targets[0].slots[0].resnapshot.collections[0]=public.orders")
			.run((context) -> assertThat(startUpMessage(context.getStartupFailure())).contains("resnapshot.signalTable")
				.contains("must be schema.table"));
		this.runner
			.withPropertyValues("slotkeeper.targets[0].slots[0].name=s",
					"slotkeeper.targets[0].slots[0].resnapshot.mode=debezium-signal",
					"slotkeeper.targets[0].slots[0].resnapshot.signal-table=public.debezium_signal",
					"slotkeeper.targets[0].slots[0].resnapshot.collections[0]=public.orders")
			.run((context) -> assertThat(
					context.getBean(SlotKeeperProperties.class).targets().get(0).slots().get(0).resnapshot().type())
				.isEqualTo(ResnapshotProperties.Type.INCREMENTAL));
	}

	@Test
	void recreatingAMissingSlotNeedsTheHeartbeatThatTakesOwnership() {
		this.runner
			.withPropertyValues("slotkeeper.targets[0].heartbeat.enabled=false",
					"slotkeeper.targets[0].slots[0].name=s", "slotkeeper.targets[0].slots[0].on-missing=recreate")
			.run((context) -> assertThat(startUpMessage(context.getStartupFailure()))
				.contains("slotkeeper.targets[0].slots[0].onMissing")
				.contains("recreate needs heartbeat.enabled=true"));
		this.runner
			.withPropertyValues("slotkeeper.targets[0].slots[0].name=s",
					"slotkeeper.targets[0].slots[0].on-missing=recreate")
			.run((context) -> assertThat(
					context.getBean(SlotKeeperProperties.class).targets().get(0).slots().get(0).onMissing())
				.isEqualTo(OnMissing.RECREATE));
	}

	@Test
	void aPasswordInAUrlIsRefusedWithoutPrintingIt() {
		this.runner
			.withPropertyValues("slotkeeper.targets[0].url=jdbc:postgresql://db/orders?password=leaked-pw-42",
					"slotkeeper.targets[0].slots[0].name=s", "slotkeeper.targets[0].slots[0].connector.name=c",
					"slotkeeper.targets[0].slots[0].connector.url=https://connect:leaked-pw-43@connect:8083")
			.run((context) -> assertThat(startUpMessage(context.getStartupFailure()))
				.contains("slotkeeper.targets[0].url")
				.contains("must not carry credentials")
				.doesNotContain("leaked-pw-42")
				.doesNotContain("leaked-pw-43"));
	}

	@Test
	void aPasswordInAServersOrAKafkaConnectClustersUrlIsRefusedWithoutPrintingIt() {
		this.runner.withPropertyValues("slotkeeper.servers[0].name=rbac-db",
				"slotkeeper.servers[0].url=jdbc:postgresql://db/postgres?password=leaked-pw-44",
				"slotkeeper.servers[0].replicas[0].name=ro",
				"slotkeeper.servers[0].replicas[0].url=jdbc:postgresql://ro/postgres?password=leaked-pw-45",
				"slotkeeper.servers[0].overrides[0].name=orders", "slotkeeper.servers[0].overrides[0].slots[0].name=s",
				"slotkeeper.servers[0].overrides[0].slots[0].connector.name=c",
				"slotkeeper.servers[0].overrides[0].slots[0].connector.url=https://c:leaked-pw-46@connect:8083",
				"slotkeeper.connector-discovery.kafka-connect[0].url=http://connect:leaked-pw-47@connect:8083")
			.run((context) -> assertThat(startUpMessage(context.getStartupFailure()))
				.contains("slotkeeper.servers[0].url")
				.contains("slotkeeper.servers[0].replicas[0].url")
				.contains("slotkeeper.servers[0].overrides[0].slots[0].connector.url")
				.contains("slotkeeper.connector-discovery.kafka-connect[0].url")
				.doesNotContain("leaked-pw-44")
				.doesNotContain("leaked-pw-45")
				.doesNotContain("leaked-pw-46")
				.doesNotContain("leaked-pw-47"));
	}

	@Test
	void aUrlWithoutCredentialsAndBoundedDurationsStart() {
		this.runner.withPropertyValues("slotkeeper.targets[0].url=jdbc:postgresql://db:5432/orders?sslmode=verify-full",
				"slotkeeper.targets[0].connection.statement-timeout=1h", "slotkeeper.targets[0].heartbeat.interval=1h",
				"slotkeeper.targets[0].slots[0].name=s", "slotkeeper.targets[0].slots[0].on-lost=recreate",
				"slotkeeper.targets[0].slots[0].connector.name=c",
				"slotkeeper.targets[0].slots[0].connector.url=https://connect.example:8083/base")
			.run((context) -> assertThat(context).hasNotFailed());
	}

	@Test
	void duplicateTargetNameIsRefused() {
		this.runner
			.withPropertyValues("slotkeeper.targets[1].name=orders",
					"slotkeeper.targets[1].url=jdbc:postgresql://db2/x")
			.run((context) -> assertThat(startUpMessage(context.getStartupFailure()))
				.contains("slotkeeper.targets[1].name")
				.contains("duplicate target name 'orders'"));
	}

	@Test
	void minAboveMaxNamesBothBounds() {
		this.runner
			.withPropertyValues("slotkeeper.targets[0].heartbeat.backoff.min=10s",
					"slotkeeper.targets[0].heartbeat.backoff.max=5s")
			.run((context) -> assertThat(startUpMessage(context.getStartupFailure()))
				.contains("slotkeeper.targets[0].heartbeat.backoff.min")
				.contains("must not be greater than max (PT5S)"));
	}

	@Test
	void duplicateTokenNameIsRefused() {
		this.runner
			.withPropertyValues("slotkeeper.api.tokens[0].name=ci", "slotkeeper.api.tokens[0].role=viewer",
					"slotkeeper.api.tokens[0].sha256=" + VALID_HASH, "slotkeeper.api.tokens[1].name=ci",
					"slotkeeper.api.tokens[1].role=operator", "slotkeeper.api.tokens[1].sha256=" + "b".repeat(64))
			.run((context) -> assertThat(startUpMessage(context.getStartupFailure()))
				.contains("slotkeeper.api.tokens[1].name"));
	}

	@Test
	void environmentVariablesBindTargetsAsHelmSetsThem() {
		Map<String, Object> variables = Map.of("SLOTKEEPER_TARGETS_0_NAME", "orders", "SLOTKEEPER_TARGETS_0_URL",
				"jdbc:postgresql://db:5432/orders", "SLOTKEEPER_TARGETS_0_USERNAME", "keeper",
				"SLOTKEEPER_TARGETS_0_PASSWORD", "from-env", "SLOTKEEPER_TARGETS_0_HEARTBEAT_INTERVAL", "7s",
				"SLOTKEEPER_TARGETS_0_HEARTBEAT_CREATETABLE", "true", "SLOTKEEPER_API_TOKENS_0_NAME", "ci",
				"SLOTKEEPER_API_TOKENS_0_SHA256", VALID_HASH, "SLOTKEEPER_API_TOKENS_0_ROLE", "viewer");
		fromEnvironment(variables).run((context) -> {
			assertThat(context).hasNotFailed();
			SlotKeeperProperties properties = context.getBean(SlotKeeperProperties.class);
			TargetProperties target = properties.targets().get(0);
			assertThat(target.name()).isEqualTo("orders");
			assertThat(target.username()).isEqualTo("keeper");
			assertThat(target.password().reveal()).isEqualTo("from-env");
			assertThat(target.heartbeat().interval()).isEqualTo(Duration.ofSeconds(7));
			assertThat(target.heartbeat().createTable()).isTrue();
			assertThat(properties.api().tokens().get(0).role()).isEqualTo(ApiRole.VIEWER);
		});
	}

	@Test
	void anOutboxTableBindsFromTheEnvironmentAsPeopleWriteIt() {
		Map<String, Object> variables = Map.of("SLOTKEEPER_TARGETS_0_NAME", "rbac", "SLOTKEEPER_TARGETS_0_URL",
				"jdbc:postgresql://db:5432/rbac", "SLOTKEEPER_TARGETS_0_SLOTS_0_NAME", "rbac_outbox",
				"SLOTKEEPER_TARGETS_0_SLOTS_0_ONLOST", "recreate", "SLOTKEEPER_TARGETS_0_SLOTS_0_CONNECTOR_URL",
				"http://connect:8083", "SLOTKEEPER_TARGETS_0_SLOTS_0_CONNECTOR_NAME", "rbac-outbox",
				"SLOTKEEPER_TARGETS_0_SLOTS_0_RESNAPSHOT_MODE", "debezium-signal",
				"SLOTKEEPER_TARGETS_0_SLOTS_0_RESNAPSHOT_DELETES", "signal",
				"SLOTKEEPER_TARGETS_0_SLOTS_0_RESNAPSHOT_OUTBOXTABLES_0", "public.outbox");
		fromEnvironment(variables).run((context) -> {
			assertThat(context).hasNotFailed();
			ResnapshotProperties resnapshot = context.getBean(SlotKeeperProperties.class)
				.targets()
				.get(0)
				.slots()
				.get(0)
				.resnapshot();
			assertThat(resnapshot.outboxes()).containsExactly("public.outbox");
			assertThat(resnapshot.deletes()).isEqualTo(ResnapshotProperties.Deletes.SIGNAL);
		});
	}

	@Test
	void aStrimziManagedConnectorIsNamedByItsResourceFromEnvironmentVariables() {
		Map<String, Object> variables = Map.of("SLOTKEEPER_TARGETS_0_NAME", "orders", "SLOTKEEPER_TARGETS_0_URL",
				"jdbc:postgresql://db:5432/orders", "SLOTKEEPER_TARGETS_0_SLOTS_0_NAME", "debezium",
				"SLOTKEEPER_TARGETS_0_SLOTS_0_CONNECTOR_STRIMZI_NAMESPACE", "cdc",
				"SLOTKEEPER_TARGETS_0_SLOTS_0_CONNECTOR_STRIMZI_NAME", "orders-debezium",
				"SLOTKEEPER_STRIMZI_APISERVER", "https://api.cluster:6443", "SLOTKEEPER_STRIMZI_APIVERSION", "v1beta2");
		fromEnvironment(variables).run((context) -> {
			assertThat(context).hasNotFailed();
			SlotKeeperProperties properties = context.getBean(SlotKeeperProperties.class);
			ConnectorProperties connector = properties.targets().get(0).slots().get(0).connector();
			assertThat(connector.managedByStrimzi()).isTrue();
			assertThat(connector.name()).isEqualTo("orders-debezium");
			assertThat(connector.url()).isNull();
			assertThat(properties.strimzi().apiServer()).hasToString("https://api.cluster:6443");
			assertThat(properties.strimzi().apiVersion()).isEqualTo("v1beta2");
		});
	}

	@Test
	void everyStrimziPropertyBindsFromTheUnderscoreFormsPeopleWrite() {
		Map<String, Object> variables = Map.of("SLOTKEEPER_STRIMZI_API_SERVER", "https://api.cluster:6443",
				"SLOTKEEPER_STRIMZI_SERVICE_ACCOUNT_TOKEN_FILE", "/run/token", "SLOTKEEPER_STRIMZI_CA_FILE",
				"/run/ca.crt", "SLOTKEEPER_STRIMZI_TIMEOUT", "9s", "SLOTKEEPER_STRIMZI_API_VERSION", "v1");
		fromEnvironment(variables).run((context) -> {
			assertThat(context).hasNotFailed();
			StrimziProperties strimzi = context.getBean(SlotKeeperProperties.class).strimzi();
			assertThat(strimzi.apiServer()).hasToString("https://api.cluster:6443");
			assertThat(strimzi.serviceAccountTokenFile()).hasToString("/run/token");
			assertThat(strimzi.caFile()).hasToString("/run/ca.crt");
			assertThat(strimzi.timeout()).isEqualTo(Duration.ofSeconds(9));
			assertThat(strimzi.apiVersion()).isEqualTo("v1");
		});
	}

	@Test
	void aStrimziConnectorNamedOtherwiseThanItsResourceOrWithBasicAuthIsRefused() {
		this.runner
			.withPropertyValues("slotkeeper.targets[0].slots[0].name=s",
					"slotkeeper.targets[0].slots[0].connector.strimzi.namespace=cdc",
					"slotkeeper.targets[0].slots[0].connector.strimzi.name=orders-debezium",
					"slotkeeper.targets[0].slots[0].connector.name=other",
					"slotkeeper.targets[0].slots[0].connector.username=u")
			.run((context) -> {
				assertThat(context).hasFailed();
				assertThat(startUpMessage(context.getStartupFailure()))
					.contains("slotkeeper.targets[0].slots[0].connector.name")
					.contains("must be the KafkaConnector's name (orders-debezium) or left out")
					.contains("slotkeeper.targets[0].slots[0].connector.username");
			});
		this.runner
			.withPropertyValues("slotkeeper.targets[0].slots[0].name=s",
					"slotkeeper.targets[0].slots[0].connector.name=orders-debezium")
			.run((context) -> {
				assertThat(context).hasFailed();
				assertThat(startUpMessage(context.getStartupFailure()))
					.contains("slotkeeper.targets[0].slots[0].connector.url")
					.contains("must be set, or strimzi for a connector that Strimzi manages");
			});
	}

	@Test
	void aServerFromEnvironmentVariablesDiscoversByDefaultAndBuildsEachDatabasesTarget() {
		Map<String, Object> variables = Map.of("SLOTKEEPER_SERVERS_0_NAME", "rbac-db", "SLOTKEEPER_SERVERS_0_URL",
				"jdbc:postgresql://rbac-db:5432,rbac-db-2:5432/postgres?sslmode=verify-full",
				"SLOTKEEPER_SERVERS_0_PASSWORD", "from-env", "SLOTKEEPER_SERVERS_0_EXCLUDE", "scratch,tmp",
				"SLOTKEEPER_SERVERS_0_HEARTBEAT_INTERVAL", "7s", "SLOTKEEPER_SERVERS_0_RETIREAFTER", "1m",
				"SLOTKEEPER_SERVERS_0_OVERRIDES_0_NAME", "orders db",
				"SLOTKEEPER_SERVERS_0_OVERRIDES_0_HEARTBEAT_INTERVAL", "2s",
				"SLOTKEEPER_SERVERS_0_OVERRIDES_0_SLOTS_0_NAME", "debezium",
				"SLOTKEEPER_SERVERS_0_OVERRIDES_0_SLOTS_0_ON_LOST", "recreate");
		fromEnvironment(variables).run((context) -> {
			assertThat(context).hasNotFailed();
			ServerProperties server = context.getBean(SlotKeeperProperties.class).servers().get(0);
			assertThat(server.discovers()).isTrue();
			assertThat(server.exclude()).containsExactly("scratch", "tmp");
			assertThat(server.retireAfter()).isEqualTo(Duration.ofMinutes(1));
			TargetProperties plain = server.target("rbac-db-billing", "billing");
			assertThat(plain.url())
				.isEqualTo("jdbc:postgresql://rbac-db:5432,rbac-db-2:5432/billing?sslmode=verify-full");
			assertThat(plain.password().reveal()).isEqualTo("from-env");
			assertThat(plain.heartbeat().interval()).isEqualTo(Duration.ofSeconds(7));
			assertThat(plain.slots()).isEmpty();
			TargetProperties overridden = server.target("rbac-db-orders-db", "orders db");
			assertThat(overridden.url())
				.isEqualTo("jdbc:postgresql://rbac-db:5432,rbac-db-2:5432/orders%20db?sslmode=verify-full");
			assertThat(overridden.heartbeat().interval()).isEqualTo(Duration.ofSeconds(2));
			assertThat(overridden.slots().get(0).onLost()).isEqualTo(OnLost.RECREATE);
		});
	}

	@Test
	void aServerListingDatabasesOrWithBadCombinationsIsRefusedNamingTheProperty() {
		this.runner
			.withPropertyValues("slotkeeper.servers[0].name=rbac-db",
					"slotkeeper.servers[0].url=jdbc:postgresql://rbac-db/postgres",
					"slotkeeper.servers[0].databases=orders,billing")
			.run((context) -> assertThat(context.getBean(SlotKeeperProperties.class).servers().get(0).discovers())
				.isFalse());
		this.runner
			.withPropertyValues("slotkeeper.servers[0].name=rbac-db",
					"slotkeeper.servers[0].url=jdbc:postgresql:postgres", "slotkeeper.servers[0].databases=auto,orders",
					"slotkeeper.servers[1].name=rbac-db", "slotkeeper.servers[1].url=jdbc:postgresql://h/x",
					"slotkeeper.servers[1].databases=orders", "slotkeeper.servers[1].exclude=orders",
					"slotkeeper.servers[1].overrides[0].name=orders",
					"slotkeeper.servers[1].overrides[0].heartbeat.enabled=false",
					"slotkeeper.servers[1].overrides[0].slots[0].name=s",
					"slotkeeper.servers[1].overrides[0].slots[0].on-lost=recreate")
			.run((context) -> assertThat(startUpMessage(context.getStartupFailure()))
				.contains("slotkeeper.servers[0].url")
				.contains("slotkeeper.servers[0].databases")
				.contains("must be 'auto' alone")
				.contains("slotkeeper.servers[1].name")
				.contains("duplicate server name 'rbac-db'")
				.contains("slotkeeper.servers[1].exclude")
				.contains("slotkeeper.servers[1].overrides[0].name")
				.contains("is excluded")
				.contains("slotkeeper.servers[1].overrides[0].slots[0].onLost"));
	}

	@Test
	void connectorDiscoveryFromEnvironmentVariablesBindsAndBadSourcesAliasesAndReplicasAreRefusedNamingTheProperty() {
		Map<String, Object> variables = Map.of("SLOTKEEPER_CONNECTOR_DISCOVERY_KAFKA_CONNECT_0_URL",
				"http://connect:8083", "SLOTKEEPER_CONNECTOR_DISCOVERY_KAFKA_CONNECT_0_PASSWORD", "from-env",
				"SLOTKEEPER_CONNECTOR_DISCOVERY_STRIMZI_NAMESPACES", "kafka,cdc",
				"SLOTKEEPER_CONNECTOR_DISCOVERY_ON_LOST", "recreate",
				"SLOTKEEPER_CONNECTOR_DISCOVERY_RESNAPSHOT_TABLES", "changed", "SLOTKEEPER_SERVERS_0_NAME", "rbac-db",
				"SLOTKEEPER_SERVERS_0_URL", "jdbc:postgresql://10.0.0.5:5433/postgres", "SLOTKEEPER_SERVERS_0_ALIASES",
				"rbac-db.prod.svc,[fd00::5]:5433");
		fromEnvironment(variables).run((context) -> {
			assertThat(context).hasNotFailed();
			SlotKeeperProperties properties = context.getBean(SlotKeeperProperties.class);
			ConnectorDiscoveryProperties discovery = properties.connectorDiscovery();
			assertThat(discovery.enabled()).isTrue();
			assertThat(discovery.kafkaConnect().get(0).password().reveal()).isEqualTo("from-env");
			assertThat(discovery.strimziNamespaces()).containsExactly("kafka", "cdc");
			assertThat(discovery.onLost()).isEqualTo(OnLost.RECREATE);
			assertThat(discovery.resnapshot()).isEqualTo(ResnapshotProperties.Mode.DEBEZIUM_SIGNAL);
			assertThat(discovery.resnapshotTables()).isEqualTo(ResnapshotProperties.Tables.CHANGED);
			assertThat(discovery.interval()).isEqualTo(Duration.ofSeconds(60));
			assertThat(properties.servers().get(0).aliases()).containsExactly("rbac-db.prod.svc", "[fd00::5]:5433");
		});
		this.runner
			.withPropertyValues("slotkeeper.connector-discovery.kafka-connect[0].url=connect:8083",
					"slotkeeper.connector-discovery.strimzi-namespaces=Kafka_NS",
					"slotkeeper.connector-discovery.interval=0s", "slotkeeper.servers[0].name=rbac-db",
					"slotkeeper.servers[0].url=jdbc:postgresql://rbac-db/postgres",
					"slotkeeper.servers[0].aliases=rbac db", "slotkeeper.servers[0].replicas[0].name=primary",
					"slotkeeper.servers[0].replicas[0].url=jdbc:postgresql:orders")
			.run((context) -> assertThat(startUpMessage(context.getStartupFailure()))
				.contains("slotkeeper.connectorDiscovery.kafkaConnect[0].url")
				.contains("http or https URL")
				.contains("slotkeeper.connectorDiscovery.strimziNamespaces[0]")
				.contains("slotkeeper.connectorDiscovery.interval")
				.contains("slotkeeper.servers[0].aliases[0]")
				.contains("host name or address")
				.contains("slotkeeper.servers[0].replicas[0].url")
				.contains("must name a host")
				.contains("slotkeeper.servers[0].replicas[0].name")
				.contains("no replica may be named 'primary'"));
	}

	// Variables as the process environment holds them, bound by the rules Spring applies
	// to it.
	private static ApplicationContextRunner fromEnvironment(Map<String, Object> variables) {
		return new ApplicationContextRunner()
			.withInitializer((context) -> context.getEnvironment()
				.getPropertySources()
				.addFirst(new SystemEnvironmentPropertySource(
						"test-" + StandardEnvironment.SYSTEM_ENVIRONMENT_PROPERTY_SOURCE_NAME, variables)))
			.withConfiguration(AutoConfigurations.of(ValidationAutoConfiguration.class,
					ConfigurationPropertiesAutoConfiguration.class))
			.withUserConfiguration(PropertiesOnly.class);
	}

	@Test
	void passwordNeverPrintsWithItsRecord() {
		this.runner.withPropertyValues("slotkeeper.targets[0].password=hunter2-secret").run((context) -> {
			TargetProperties target = context.getBean(SlotKeeperProperties.class).targets().get(0);
			assertThat(target.password().reveal()).isEqualTo("hunter2-secret");
			assertThat(target.toString()).doesNotContain("hunter2-secret").contains("******");
		});
	}

	/**
	 * What Spring Boot prints when start-up fails: the failure analysis where one
	 * applies, else the causes.
	 */
	private static String startUpMessage(Throwable failure) {
		assertThat(failure).isNotNull();
		for (FailureAnalyzer analyzer : SpringFactoriesLoader.forDefaultResourceLocation()
			.load(FailureAnalyzer.class,
					SpringFactoriesLoader.ArgumentResolver.of(BeanFactory.class, new DefaultListableBeanFactory())
						.and(Environment.class, new StandardEnvironment()))) {
			FailureAnalysis analysis = analyzer.analyze(failure);
			if (analysis != null) {
				return analysis.getDescription();
			}
		}
		StringBuilder messages = new StringBuilder();
		for (Throwable cause = failure; cause != null; cause = cause.getCause()) {
			messages.append(cause.getMessage()).append('\n');
		}
		return messages.toString();
	}

	@Configuration(proxyBeanMethods = false)
	@EnableConfigurationProperties(SlotKeeperProperties.class)
	@Import(ConfigurationSupport.class)
	static class PropertiesOnly {

	}

}
