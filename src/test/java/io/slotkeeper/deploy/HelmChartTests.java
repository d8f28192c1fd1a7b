package io.slotkeeper.deploy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.function.UnaryOperator;

import com.marcnuri.helm.Helm;
import com.marcnuri.helm.LintResult;
import com.marcnuri.helm.TemplateCommand;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import static io.slotkeeper.deploy.HelmChart.get;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatException;

/**
 * The chart lints strictly, renders every {@code ci/*.yaml}, and renders what OpenShift's
 * restricted-v2 SCC and the application need.
 */
class HelmChartTests {

	@Test
	void chartLintsStrictly() {
		LintResult result = new Helm(HelmChart.CHART).lint().strict().call();
		assertThat(result.isFailed()).as("helm lint --strict: %s", result.getMessages()).isFalse();
	}

	static List<Path> ciValuesFiles() {
		return HelmChart.ciValuesFiles();
	}

	@ParameterizedTest
	@MethodSource("ciValuesFiles")
	void everyCiValuesFileRendersARestrictedDeployment(Path values) {
		HelmChart.Rendered rendered = HelmChart.render(values);
		Map<String, Object> deployment = rendered.one("Deployment");
		Map<String, Object> pod = get(deployment, "spec", "template", "spec");
		Map<String, Object> container = get(pod, "containers", 0);
		assertThat((Map<String, Object>) get(pod, "securityContext")).doesNotContainKeys("runAsUser", "runAsGroup",
				"fsGroup");
		assertThat((Map<String, Object>) get(container, "securityContext")).doesNotContainKeys("runAsUser",
				"runAsGroup");
		assertThat((Object) get(pod, "securityContext", "runAsNonRoot")).isEqualTo(true);
		assertThat((Object) get(pod, "securityContext", "seccompProfile", "type")).isEqualTo("RuntimeDefault");
		assertThat((Object) get(pod, "enableServiceLinks")).isEqualTo(false);
		assertThat((Object) get(container, "securityContext", "allowPrivilegeEscalation")).isEqualTo(false);
		assertThat((Object) get(container, "securityContext", "readOnlyRootFilesystem")).isEqualTo(true);
		assertThat((List<Object>) get(container, "securityContext", "capabilities", "drop")).containsExactly("ALL");
		assertThat((Object) get(container, "startupProbe", "httpGet", "path")).isEqualTo("/actuator/health/liveness");
		assertThat((Object) get(container, "livenessProbe", "httpGet", "path")).isEqualTo("/actuator/health/liveness");
		assertThat((Object) get(container, "readinessProbe", "httpGet", "path"))
			.isEqualTo("/actuator/health/readiness");
		assertThat((Integer) get(pod, "terminationGracePeriodSeconds")).as("longer than the 30 s shutdown phase")
			.isGreaterThan(30);
		assertThat((List<Map<String, Object>>) get(container, "volumeMounts"))
			.anySatisfy((mount) -> assertThat(mount).containsEntry("mountPath", "/tmp"));
		assertThat((List<Map<String, Object>>) get(pod, "volumes"))
			.anySatisfy((volume) -> assertThat(volume).containsEntry("name", "tmp").containsKey("emptyDir"));
		assertThat((String) get(deployment, "spec", "template", "metadata", "annotations", "checksum/config"))
			.matches("[0-9a-f]{64}");
		assertThat((String) get(deployment, "spec", "template", "metadata", "annotations", "checksum/secret"))
			.matches("[0-9a-f]{64}");
		assertThat((Map<String, Object>) get(deployment, "spec", "strategy")).containsEntry("type", "RollingUpdate");
		for (Map<String, Object> document : rendered.documents()) {
			assertThat((Map<String, Object>) get(document, "metadata", "labels"))
				.as("labels of %s", document.get("kind"))
				.containsKeys("app.kubernetes.io/name", "app.kubernetes.io/instance", "app.kubernetes.io/version",
						"app.kubernetes.io/managed-by", "helm.sh/chart");
		}
	}

	@ParameterizedTest
	@MethodSource("ciValuesFiles")
	void secretsReachThePodOnlyThroughSecretKeyRefs(Path values) throws Exception {
		HelmChart.Rendered rendered = HelmChart.render(values);
		String configYaml = rendered.applicationYaml();
		String valuesText = Files.readString(values);
		for (String secret : List.of("orders-password", "billing-password", "legacy-password", "connect-password",
				"replica-password")) {
			if (valuesText.contains(secret)) {
				assertThat(configYaml).as("ConfigMap of %s", values).doesNotContain(secret);
				assertThat(rendered.ofKind("Secret")).singleElement()
					.satisfies((s) -> assertThat(s.toString()).contains(secret));
			}
		}
		assertThat(configYaml).doesNotContainPattern("sha256: \"?[0-9a-fA-F]{64}");
		List<Map<String, Object>> env = get(rendered.one("Deployment"), "spec", "template", "spec", "containers", 0,
				"env");
		List<Map<String, Object>> secretEnv = env.stream()
			.filter((e) -> ((String) e.get("name")).startsWith("SK_"))
			.toList();
		assertThat(secretEnv).allSatisfy((e) -> {
			assertThat(e).doesNotContainKey("value");
			assertThat((String) get(e, "valueFrom", "secretKeyRef", "name")).isNotBlank();
			assertThat(configYaml).contains("${" + e.get("name") + "}");
		});
		assertThat(env).filteredOn((e) -> ((String) e.get("name")).startsWith("SLOTKEEPER_"))
			.as("configuration goes through the ConfigMap: the environment carries the Pod's identity alone")
			.allSatisfy((e) -> {
				assertThat(e).doesNotContainKey("value");
				assertThat((String) get(e, "valueFrom", "fieldRef", "fieldPath")).startsWith("metadata.");
			});
	}

	@Test
	void existingSecretIsReferencedAndNoSecretIsCreated() {
		HelmChart.Rendered rendered = HelmChart.render(HelmChart.CHART.resolve("ci/existing-secret-values.yaml"));
		assertThat(rendered.ofKind("Secret")).isEmpty();
		List<Map<String, Object>> env = get(rendered.one("Deployment"), "spec", "template", "spec", "containers", 0,
				"env");
		assertThat(env).filteredOn((e) -> ((String) e.get("name")).startsWith("SK_"))
			.extracting((e) -> (String) get(e, "valueFrom", "secretKeyRef", "key"))
			.containsExactlyInAnyOrder("target-orders-password", "replica-orders-replica1-password",
					"connector-orders-debezium-password", "token-ci-sha256", "token-dashboard-sha256");
		assertThat(env).filteredOn((e) -> ((String) e.get("name")).startsWith("SK_"))
			.allSatisfy((e) -> assertThat((String) get(e, "valueFrom", "secretKeyRef", "name"))
				.isEqualTo("slot-keeper-credentials"));
	}

	@Test
	void clusterSignInMountsTheTokenBindsAuthDelegatorAndShipsTwoRolesOnlyWhenEnabled() {
		HelmChart.Rendered off = HelmChart.render(HelmChart.CHART.resolve("ci/default-values.yaml"), NO_EVENTS);
		assertThat(off.ofKind("ClusterRoleBinding")).isEmpty();
		assertThat(off.ofKind("Role")).isEmpty();
		assertThat((Object) get(off.one("Deployment"), "spec", "template", "spec", "automountServiceAccountToken"))
			.isEqualTo(false);
		assertThat(off.applicationYaml()).doesNotContain("kubernetes");

		HelmChart.Rendered on = HelmChart.render(HelmChart.CHART.resolve("ci/cluster-sign-in-values.yaml"), NO_EVENTS);
		assertThat((Object) get(on.one("Deployment"), "spec", "template", "spec", "automountServiceAccountToken"))
			.isEqualTo(true);
		Map<String, Object> binding = on.one("ClusterRoleBinding");
		assertThat((Object) get(binding, "roleRef", "name")).isEqualTo("system:auth-delegator");
		assertThat((Object) get(binding, "subjects", 0, "name"))
			.isEqualTo(get(on.one("Deployment"), "spec", "template", "spec", "serviceAccountName"));
		assertThat((Object) get(binding, "subjects", 0, "namespace")).isEqualTo("cdc");
		assertThat(on.ofKind("Role")).extracting((role) -> (String) get(role, "metadata", "name"))
			.containsExactlyInAnyOrder("keeper-slot-keeper-viewer", "keeper-slot-keeper-operator");
		assertThat(on.ofKind("Role")).allSatisfy((role) -> {
			assertThat((List<Object>) get(role, "rules", 0, "apiGroups")).containsExactly("slotkeeper.io");
			assertThat((List<Object>) get(role, "rules", 0, "resources")).containsExactly("slots");
		});
		assertThat(on.ofKind("Role"))
			.filteredOn((role) -> ((String) get(role, "metadata", "name")).endsWith("operator"))
			.singleElement()
			.satisfies((role) -> assertThat((List<Object>) get(role, "rules", 0, "verbs")).containsExactly("get",
					"update", "delete"));
		assertThat(on.applicationYaml()).contains("kubernetes:")
			.contains("namespace: cdc")
			.contains("cache-ttl: 20s")
			.contains("audiences:")
			.contains("- slot-keeper");
	}

	@Test
	void strimziManagedConnectorsGetARoleInTheirNamespaceAndTheTokenMounted() {
		HelmChart.Rendered rendered = HelmChart.render(HelmChart.CHART.resolve("ci/strimzi-values.yaml"));
		assertThat((Object) get(rendered.one("Deployment"), "spec", "template", "spec", "automountServiceAccountToken"))
			.isEqualTo(true);
		assertThat(rendered.ofKind("ClusterRoleBinding")).as("no cluster-wide right for connectors").isEmpty();
		Map<String, Object> role = inNamespace(rendered.ofKind("Role"), "cdc-connect");
		assertThat((List<Object>) get(role, "rules", 0, "apiGroups")).containsExactly("kafka.strimzi.io");
		assertThat((List<Object>) get(role, "rules", 0, "resources")).containsExactly("kafkaconnectors");
		assertThat((List<Object>) get(role, "rules", 0, "verbs")).as("no verb the code never uses")
			.containsExactly("get", "list", "patch");
		assertThat((List<Object>) get(role, "rules", 1, "resources")).containsExactly("configmaps");
		assertThat((List<Object>) get(role, "rules", 1, "verbs")).containsExactly("get", "create", "patch");
		assertThat((List<Object>) get(role, "rules", 2, "apiGroups")).as("events on the KafkaConnectors")
			.containsExactly("events.k8s.io");
		assertThat((List<Object>) get(role, "rules", 2, "verbs")).containsExactly("create", "patch");
		assertThat((List<Object>) get(role, "rules", 3, "resources")).as("statusFrom: worker")
			.containsExactly("kafkaconnects");
		assertThat((List<Object>) get(role, "rules", 3, "verbs")).containsExactly("get");
		assertThat(rendered.text()).doesNotContain("kafkaconnectors/status").doesNotContain("pods/exec");
		assertThat(rendered.ofKind("NetworkPolicy"))
			.filteredOn((policy) -> "cdc-connect".equals(get(policy, "metadata", "namespace")))
			.singleElement()
			.satisfies((policy) -> {
				assertThat((Object) get(policy, "spec", "podSelector", "matchLabels", "strimzi.io/kind"))
					.isEqualTo("KafkaConnect");
				assertThat((Object) get(policy, "spec", "ingress", 0, "ports", 0, "port")).isEqualTo(8083);
				assertThat((Object) get(policy, "spec", "ingress", 0, "from", 0, "podSelector", "matchLabels",
						"app.kubernetes.io/name"))
					.isEqualTo("slot-keeper");
			});
		assertThat(HelmChart
			.render(HelmChart.CHART.resolve("ci/strimzi-values.yaml"),
					(command) -> command.set("connectors.strimzi.statusFrom", "resource"))
			.text()).as("statusFrom: resource").doesNotContain("kafkaconnects").doesNotContain("to-kafka-connect");
		Map<String, Object> binding = inNamespace(rendered.ofKind("RoleBinding"), "cdc-connect");
		assertThat((Object) get(binding, "subjects", 0, "name"))
			.isEqualTo(get(rendered.one("Deployment"), "spec", "template", "spec", "serviceAccountName"));
		assertThat(rendered.applicationYaml()).contains("strimzi:")
			.contains("namespace: cdc-connect")
			.contains("name: orders-debezium")
			.contains("status-from: worker")
			.doesNotContain("CONNECTOR_PASSWORD");
	}

	@Test
	void eventsGetARoleToCreateAndPatchEventsHereThePodsIdentityAndTheTokenAndNothingWhenOff() {
		HelmChart.Rendered on = HelmChart.render(HelmChart.CHART.resolve("ci/default-values.yaml"));
		assertThat(on.ofKind("Role")).singleElement().satisfies((role) -> {
			assertThat((Object) get(role, "metadata", "name")).isEqualTo("keeper-slot-keeper-events");
			assertThat((List<Object>) get(role, "rules")).hasSize(1);
			assertThat((List<Object>) get(role, "rules", 0, "apiGroups")).containsExactly("events.k8s.io");
			assertThat((List<Object>) get(role, "rules", 0, "resources")).containsExactly("events");
			assertThat((List<Object>) get(role, "rules", 0, "verbs")).as("no verb the code never uses")
				.containsExactly("create", "patch");
		});
		assertThat((Object) get(on.one("RoleBinding"), "subjects", 0, "name"))
			.isEqualTo(get(on.one("Deployment"), "spec", "template", "spec", "serviceAccountName"));
		assertThat((Object) get(on.one("Deployment"), "spec", "template", "spec", "automountServiceAccountToken"))
			.isEqualTo(true);
		List<Map<String, Object>> env = get(on.one("Deployment"), "spec", "template", "spec", "containers", 0, "env");
		assertThat(env).filteredOn((e) -> ((String) e.get("name")).startsWith("SLOTKEEPER_EVENTS_"))
			.extracting((e) -> e.get("name") + "=" + get(e, "valueFrom", "fieldRef", "fieldPath"))
			.containsExactly("SLOTKEEPER_EVENTS_PODNAME=metadata.name",
					"SLOTKEEPER_EVENTS_PODNAMESPACE=metadata.namespace", "SLOTKEEPER_EVENTS_PODUID=metadata.uid");
		assertThat(on.applicationYaml()).contains("events:").contains("enabled: true");

		HelmChart.Rendered off = HelmChart.render(HelmChart.CHART.resolve("ci/default-values.yaml"), NO_EVENTS);
		assertThat(off.ofKind("Role")).isEmpty();
		assertThat(off.ofKind("RoleBinding")).isEmpty();
		assertThat(off.text()).doesNotContain("SLOTKEEPER_EVENTS_").doesNotContain("events.k8s.io");
		assertThat(off.applicationYaml()).contains("enabled: false");
	}

	private static final UnaryOperator<TemplateCommand> NO_EVENTS = (command) -> command.set("events.enabled", "false");

	private static Map<String, Object> inNamespace(List<Map<String, Object>> resources, String namespace) {
		return resources.stream()
			.filter((resource) -> namespace.equals(get(resource, "metadata", "namespace")))
			.findFirst()
			.orElseThrow();
	}

	@Test
	void logsAreEcsJsonByDefaultAndPlainTextOnRequest() {
		assertThat(HelmChart.render(HelmChart.CHART.resolve("ci/default-values.yaml")).applicationYaml())
			.contains("structured:")
			.contains("console: ecs");
		assertThat(HelmChart
			.render(HelmChart.CHART.resolve("ci/default-values.yaml"),
					(command) -> command.set("logging.structured", ""))
			.applicationYaml()).doesNotContain("structured");
	}

	@Test
	void routeIsEdgeTlsAndNetworkPolicyAdmitsRouterAndMonitoring() {
		HelmChart.Rendered rendered = HelmChart.render(HelmChart.CHART.resolve("ci/route-values.yaml"));
		Map<String, Object> route = rendered.one("Route");
		assertThat((Object) route.get("apiVersion")).isEqualTo("route.openshift.io/v1");
		assertThat((Object) get(route, "spec", "tls", "termination")).isEqualTo("edge");
		assertThat((Object) get(route, "spec", "to", "name")).isEqualTo("keeper-slot-keeper");
		assertThat(rendered.one("NetworkPolicy").toString()).contains("network.openshift.io/policy-group=ingress")
			.contains("network.openshift.io/policy-group=monitoring")
			.contains("sre-tools");
		assertThat(HelmChart.render(HelmChart.CHART.resolve("ci/default-values.yaml")).ofKind("Route")).isEmpty();
	}

	@Test
	void actuatorIsOnAManagementPortThatOnlyProbesAndMonitoringReach() {
		HelmChart.Rendered rendered = HelmChart.render(HelmChart.CHART.resolve("ci/route-values.yaml"));
		assertThat((Object) get(rendered.one("Route"), "spec", "port", "targetPort")).isEqualTo("http");
		Map<String, Object> container = get(rendered.one("Deployment"), "spec", "template", "spec", "containers", 0);
		for (String probe : List.of("startupProbe", "livenessProbe", "readinessProbe")) {
			assertThat((Object) get(container, probe, "httpGet", "port")).isEqualTo("management");
		}
		assertThat(rendered.applicationYaml()).contains("management:").contains("port: 9090");
		List<Map<String, Object>> rules = get(rendered.one("NetworkPolicy"), "spec", "ingress");
		assertThat(rules).hasSize(2);
		assertThat((Object) get(rules.get(0), "ports", 0, "port")).isEqualTo("management");
		assertThat(rules.get(0).toString()).contains("policy-group=monitoring").doesNotContain("policy-group=ingress");
		assertThat((Object) get(rules.get(1), "ports", 0, "port")).isEqualTo("http");
		assertThat(rules.get(1).toString()).contains("policy-group=ingress").doesNotContain("policy-group=monitoring");
		HelmChart.Rendered monitored = HelmChart.render(HelmChart.CHART.resolve("ci/monitoring-values.yaml"));
		assertThat((Object) get(monitored.one("ServiceMonitor"), "spec", "endpoints", 0, "port"))
			.isEqualTo("management");
	}

	@Test
	void bumpingSecretRevisionRollsThePodsOfAnExistingSecret() {
		java.util.function.Function<String, Object> checksum = (revision) -> get(HelmChart
			.render(HelmChart.CHART.resolve("ci/default-values.yaml"),
					(command) -> command.set("existingSecret", "creds").set("secretRevision", revision))
			.one("Deployment"), "spec", "template", "metadata", "annotations", "checksum/secret");
		assertThat(checksum.apply("2026-12-01")).isNotEqualTo(checksum.apply("2026-12-02"));
	}

	@Test
	void withNoRouteIngressOrPeerTheNetworkPolicyAdmitsNobodyToTheApiPort() {
		HelmChart.Rendered rendered = HelmChart.render(HelmChart.CHART.resolve("ci/default-values.yaml"));
		List<Map<String, Object>> rules = get(rendered.one("NetworkPolicy"), "spec", "ingress");
		assertThat(rules).as("on by default, the management port's rule alone").hasSize(1);
		assertThat((Object) get(rules.get(0), "ports", 0, "port")).isEqualTo("management");
		assertThat((List<Object>) get(rules.get(0), "from")).isNotEmpty();
		HelmChart.Rendered ingressWithoutLabels = HelmChart.render(HelmChart.CHART.resolve("ci/default-values.yaml"),
				(command) -> command.set("ingress.enabled", "true"));
		assertThat((List<Object>) get(ingressWithoutLabels.one("NetworkPolicy"), "spec", "ingress")).hasSize(1);
		assertThat(HelmChart
			.render(HelmChart.CHART.resolve("ci/default-values.yaml"),
					(command) -> command.set("networkPolicy.enabled", "false"))
			.ofKind("NetworkPolicy")).isEmpty();
	}

	@Test
	void aPlainIngressPublishesOnlyTheApiPortAndItsControllerIsAdmitted() {
		HelmChart.Rendered rendered = HelmChart.render(HelmChart.CHART.resolve("ci/route-values.yaml"),
				(command) -> command.set("route.enabled", "false")
					.set("ingress.enabled", "true")
					.set("networkPolicy.ingressControllerNamespaceLabels.kubernetes\\.io/metadata\\.name",
							"ingress-nginx"));
		assertThat((Object) get(rendered.one("Ingress"), "spec", "rules", 0, "http", "paths", 0, "backend", "service",
				"port", "name"))
			.isEqualTo("http");
		assertThat(rendered.one("NetworkPolicy").toString()).contains("kubernetes.io/metadata.name=ingress-nginx");
	}

	@Test
	void severalReplicasGetADisruptionBudgetAndTheCaBundle() {
		HelmChart.Rendered rendered = HelmChart.render(HelmChart.CHART.resolve("ci/several-targets-values.yaml"));
		assertThat((Object) get(rendered.one("PodDisruptionBudget"), "spec", "minAvailable")).isEqualTo(1);
		assertThat(rendered.one("Deployment").toString()).contains("/etc/slot-keeper-ca").contains("postgres-ca");
		assertThat(HelmChart.render(HelmChart.CHART.resolve("ci/default-values.yaml")).ofKind("PodDisruptionBudget"))
			.isEmpty();
	}

	@Test
	void monitoringRendersServiceMonitorAlertsWithRunbooksAndDashboard() {
		HelmChart.Rendered rendered = HelmChart.render(HelmChart.CHART.resolve("ci/monitoring-values.yaml"));
		assertThat((Object) get(rendered.one("ServiceMonitor"), "spec", "endpoints", 0, "path"))
			.isEqualTo("/actuator/prometheus");
		List<Map<String, Object>> rules = get(rendered.one("PrometheusRule"), "spec", "groups", 0, "rules");
		assertThat(rules).extracting((rule) -> rule.get("alert"))
			.containsExactly("SlotKeeperHeartbeatFailing", "SlotKeeperHeartbeatStale", "SlotKeeperTargetUnowned",
					"SlotKeeperSlotPollStale", "SlotKeeperLaneHung", "KeepSizeRaiseNotPutBack",
					"SlotKeeperServerDatabasesUncovered", "ServerSettingRisksSlots",
					"ConnectorSettingDefeatsSlotKeeper", "SlotKeeperConnectorUnprotected", "ReplicationSlotLost",
					"ReplicationSlotMissing", "ConnectorStaleOffset", "ConnectorRestartsSpent",
					"ReplicationSlotResnapshotNotSent", "ReplicationSlotGapDeletes", "ReplicationSlotNotFailoverReady",
					"ReplicationSlotOrphan", "ReplicationSlotUnreserved", "ReplicationSlotRetainedWalHigh",
					"ReplicationSlotInactive", "ReplicationSlotOutageBudgetLow", "ReplicationSlotXidAgeHigh");
		assertThat(rules).allSatisfy((rule) -> {
			assertThat((String) get(rule, "annotations", "summary")).isNotBlank();
			assertThat((String) get(rule, "annotations", "description")).isNotBlank();
			assertThat((String) get(rule, "annotations", "runbook_url")).contains("docs/runbook.md#");
		});
		assertThat(rules).filteredOn((rule) -> "ReplicationSlotRetainedWalHigh".equals(rule.get("alert")))
			.singleElement()
			.satisfies((rule) -> assertThat(rule.get("expr").toString()).endsWith("> 536870912"));
		assertThat(rules).filteredOn((rule) -> "ReplicationSlotInactive".equals(rule.get("alert")))
			.singleElement()
			.satisfies((rule) -> {
				assertThat(rule.get("for")).isEqualTo("30m");
				// A gap journal's copy of a slot is inactive while its consumer is away:
				// that slot's own alert says so once.
				assertThat(rule.get("expr")).isEqualTo("slotkeeper_slot_active{slot!~\"slotkeeper_gap_.*\"} == 0");
			});
		assertThat(rules).filteredOn((rule) -> "ReplicationSlotXidAgeHigh".equals(rule.get("alert")))
			.singleElement()
			.satisfies((rule) -> assertThat(rule.get("expr").toString())
				.isEqualTo("slotkeeper_slot_xid_age_transactions > 1000000000"));
		Map<String, Object> dashboard = rendered.ofKind("ConfigMap")
			.stream()
			.filter((map) -> map.toString().contains("grafana_dashboard=1"))
			.findFirst()
			.orElseThrow();
		assertThat(get(dashboard, "data", "slot-keeper.json").toString())
			.contains("slotkeeper_slot_retained_wal_bytes");
	}

	@Test
	void runbookHasASectionForEveryAlertAnchor() throws Exception {
		String runbook = Files.readString(Path.of("docs/runbook.md"));
		HelmChart.Rendered rendered = HelmChart.render(HelmChart.CHART.resolve("ci/monitoring-values.yaml"));
		List<Map<String, Object>> rules = get(rendered.one("PrometheusRule"), "spec", "groups", 0, "rules");
		assertThat(rules).allSatisfy((rule) -> assertThat(runbook).contains("## " + rule.get("alert")));
	}

	@Test
	void aChangedConfigurationChangesTheChecksumThatRollsThePods() {
		Path values = HelmChart.CHART.resolve("ci/default-values.yaml");
		String before = get(HelmChart.render(values).one("Deployment"), "spec", "template", "metadata", "annotations",
				"checksum/config");
		String after = get(HelmChart.render(values, (command) -> command.set("targets[0].heartbeat.interval", "5s"))
			.one("Deployment"), "spec", "template", "metadata", "annotations", "checksum/config");
		assertThat(after).isNotEqualTo(before);
	}

	@Test
	void valuesThatBreakTheSchemaAreRejected() {
		Path values = HelmChart.CHART.resolve("ci/default-values.yaml");
		assertThatException()
			.isThrownBy(() -> HelmChart.render(values, (command) -> command.set("targets[0].name", "Orders_DB")))
			.withMessageContaining("name");
		assertThatException()
			.isThrownBy(() -> HelmChart.render(values, (command) -> command.set("api.tokens[0].role", "admin")))
			.withMessageContaining("role");
		assertThatException()
			.isThrownBy(() -> HelmChart.render(values, (command) -> command.set("targets[0].heartbeat.mode", "notify")))
			.withMessageContaining("mode");
		Path servers = HelmChart.CHART.resolve("ci/servers-values.yaml");
		assertThatException()
			.isThrownBy(
					() -> HelmChart.render(servers, (command) -> command.set("servers[0].url", "jdbc:postgresql:db")))
			.withMessageContaining("url");
		assertThatException()
			.isThrownBy(() -> HelmChart.render(servers, (command) -> command.set("servers[0].databases", "everything")))
			.withMessageContaining("databases");
	}

	@Test
	void aServersPasswordReachesThePodThroughTheSecretOnly() {
		HelmChart.Rendered rendered = HelmChart.render(HelmChart.CHART.resolve("ci/servers-values.yaml"));
		assertThat(rendered.applicationYaml()).contains("password: ${SK_SERVER_0_PASSWORD}")
			.contains("retireAfter: 10m")
			.doesNotContain("billing-password");
		assertThat(rendered.ofKind("Secret")).singleElement()
			.satisfies((secret) -> assertThat(secret.toString()).contains("server-rbac-db-password"));
		List<Map<String, Object>> env = get(rendered.one("Deployment"), "spec", "template", "spec", "containers", 0,
				"env");
		assertThat(env).anySatisfy((variable) -> {
			assertThat(variable.get("name")).isEqualTo("SK_SERVER_0_PASSWORD");
			assertThat((String) get(variable, "valueFrom", "secretKeyRef", "key")).isEqualTo("server-rbac-db-password");
		});
	}

	@Test
	void aDiscoveredKafkaConnectsPasswordReachesThePodThroughTheSecretOnlyAndItsStrimziNamespacesGetTheRole() {
		HelmChart.Rendered rendered = HelmChart.render(HelmChart.CHART.resolve("ci/servers-values.yaml"));
		assertThat(rendered.applicationYaml()).contains("connector-discovery:")
			.contains("password: ${SK_CONNECT_0_PASSWORD}")
			.contains("on-lost: recreate")
			.contains("rbac-db.databases.svc")
			.doesNotContain("connect-password");
		assertThat(rendered.ofKind("Secret")).singleElement()
			.satisfies((secret) -> assertThat(secret.toString()).contains("connect-kafka-connect-password"));
		List<Map<String, Object>> env = get(rendered.one("Deployment"), "spec", "template", "spec", "containers", 0,
				"env");
		assertThat(env).anySatisfy((variable) -> {
			assertThat(variable.get("name")).isEqualTo("SK_CONNECT_0_PASSWORD");
			assertThat((String) get(variable, "valueFrom", "secretKeyRef", "key"))
				.as("keyed by the cluster's name, not its place in the list")
				.isEqualTo("connect-kafka-connect-password");
		});
		assertThat(rendered.applicationYaml()).as("the chart's name is not the application's")
			.doesNotContain("name: kafka-connect");
		assertThat(rendered.ofKind("Role"))
			.extracting((role) -> get(role, "metadata", "name") + " in " + get(role, "metadata", "namespace"))
			.containsExactlyInAnyOrder("keeper-slot-keeper-strimzi-connectors in cdc",
					"keeper-slot-keeper-events in null");
		assertThat(
				(Boolean) get(rendered.one("Deployment"), "spec", "template", "spec", "automountServiceAccountToken"))
			.as("the token lists the namespace's KafkaConnectors")
			.isTrue();
		Path servers = HelmChart.CHART.resolve("ci/servers-values.yaml");
		assertThatException()
			.isThrownBy(() -> HelmChart.render(servers,
					(command) -> command.set("connectors.discovery.kafkaConnect[0].url", "connect:8083")))
			.withMessageContaining("url");
	}

	@Test
	void kafkaConnectPasswordsAreKeyedByNameSoAReorderedListSendsNoneToAnotherCluster() {
		java.util.function.BiFunction<String, String, List<Map<String, Object>>> env = (first,
				second) -> get(HelmChart
					.render(HelmChart.CHART.resolve("ci/default-values.yaml"),
							(command) -> command.set("connectors.discovery.kafkaConnect[0].name", first)
								.set("connectors.discovery.kafkaConnect[0].url", "http://" + first + ":8083")
								.set("connectors.discovery.kafkaConnect[0].username", "u")
								.set("connectors.discovery.kafkaConnect[0].password", first + "-pw")
								.set("connectors.discovery.kafkaConnect[1].name", second)
								.set("connectors.discovery.kafkaConnect[1].url", "http://" + second + ":8083")
								.set("connectors.discovery.kafkaConnect[1].username", "u")
								.set("connectors.discovery.kafkaConnect[1].password", second + "-pw"))
					.one("Deployment"), "spec", "template", "spec", "containers", 0, "env");
		for (List<Map<String, Object>> variables : List.of(env.apply("east", "west"), env.apply("west", "east"))) {
			List<String> keys = variables.stream()
				.filter((variable) -> String.valueOf(variable.get("name")).startsWith("SK_CONNECT_"))
				.map((variable) -> (String) get(variable, "valueFrom", "secretKeyRef", "key"))
				.toList();
			assertThat(keys).containsExactlyInAnyOrder("connect-east-password", "connect-west-password");
		}
		assertThat(env.apply("west", "east"))
			.filteredOn((variable) -> "SK_CONNECT_0_PASSWORD".equals(variable.get("name")))
			.singleElement()
			.satisfies((variable) -> assertThat((String) get(variable, "valueFrom", "secretKeyRef", "key"))
				.as("the first entry's password is the first entry's cluster's")
				.isEqualTo("connect-west-password"));
	}

	@Test
	void withAnExistingSecretAKafkaConnectWithoutAuthNeedsNoKey() {
		HelmChart.Rendered rendered = HelmChart.render(HelmChart.CHART.resolve("ci/default-values.yaml"),
				(command) -> command.set("existingSecret", "creds")
					.set("connectors.discovery.kafkaConnect[0].name", "open")
					.set("connectors.discovery.kafkaConnect[0].url", "http://open:8083")
					.set("connectors.discovery.kafkaConnect[1].name", "secured")
					.set("connectors.discovery.kafkaConnect[1].url", "http://secured:8083")
					.set("connectors.discovery.kafkaConnect[1].username", "u"));
		List<Map<String, Object>> env = get(rendered.one("Deployment"), "spec", "template", "spec", "containers", 0,
				"env");
		assertThat(env).extracting((variable) -> (String) variable.get("name"))
			.filteredOn((name) -> name.startsWith("SK_CONNECT_"))
			.containsExactly("SK_CONNECT_1_PASSWORD");
	}

}
