{{/* The chart name. */}}
{{- define "slot-keeper.name" -}}
{{- default .Chart.Name .Values.nameOverride | trunc 63 | trimSuffix "-" }}
{{- end }}

{{/* The full name of every resource. */}}
{{- define "slot-keeper.fullname" -}}
{{- if .Values.fullnameOverride }}
{{- .Values.fullnameOverride | trunc 63 | trimSuffix "-" }}
{{- else }}
{{- $name := default .Chart.Name .Values.nameOverride }}
{{- if contains $name .Release.Name }}
{{- .Release.Name | trunc 63 | trimSuffix "-" }}
{{- else }}
{{- printf "%s-%s" .Release.Name $name | trunc 63 | trimSuffix "-" }}
{{- end }}
{{- end }}
{{- end }}

{{/* The standard labels. */}}
{{- define "slot-keeper.labels" -}}
helm.sh/chart: {{ printf "%s-%s" .Chart.Name .Chart.Version | replace "+" "_" | trunc 63 | trimSuffix "-" }}
{{ include "slot-keeper.selectorLabels" . }}
app.kubernetes.io/version: {{ .Chart.AppVersion | quote }}
app.kubernetes.io/managed-by: {{ .Release.Service }}
app.kubernetes.io/part-of: slot-keeper
{{- end }}

{{/* The labels that select the pods. */}}
{{- define "slot-keeper.selectorLabels" -}}
app.kubernetes.io/name: {{ include "slot-keeper.name" . }}
app.kubernetes.io/instance: {{ .Release.Name }}
{{- end }}

{{/* The ServiceAccount's name. */}}
{{- define "slot-keeper.serviceAccountName" -}}
{{- if .Values.serviceAccount.create }}
{{- default (include "slot-keeper.fullname" .) .Values.serviceAccount.name }}
{{- else }}
{{- default "default" .Values.serviceAccount.name }}
{{- end }}
{{- end }}

{{/* The Secret holding passwords and token hashes: the chart's own or an existing one. */}}
{{- define "slot-keeper.secretName" -}}
{{- default (include "slot-keeper.fullname" .) .Values.existingSecret }}
{{- end }}

{{/* The image reference. */}}
{{- define "slot-keeper.image" -}}
{{- printf "%s:%s" .Values.image.repository (default .Chart.AppVersion .Values.image.tag) }}
{{- end }}

{{/*
application.yaml: the targets and tokens of the values, with every secret replaced by a placeholder that Spring
resolves from an environment variable fed by the Secret. Environment variables are named SK_* so that none of them
is taken for a slotkeeper.* key, and the list stays whole in one source.
*/}}
{{- define "slot-keeper.applicationYaml" -}}
{{- $targets := list }}
{{- range $t, $target := .Values.targets }}
{{- $out := omit $target "password" "slots" "replicas" }}
{{- if or $target.password $.Values.existingSecret }}
{{- $_ := set $out "password" (printf "${SK_TARGET_%d_PASSWORD}" $t) }}
{{- end }}
{{- $slots := list }}
{{- range $s, $slot := ($target.slots | default list) }}
{{- $slotOut := omit $slot "connector" }}
{{- if $slot.connector }}
{{- $connector := omit $slot.connector "password" }}
{{- if and (not $slot.connector.strimzi) (or $slot.connector.password $.Values.existingSecret) }}
{{- $_ := set $connector "password" (printf "${SK_TARGET_%d_SLOT_%d_CONNECTOR_PASSWORD}" $t $s) }}
{{- end }}
{{- $_ := set $slotOut "connector" $connector }}
{{- end }}
{{- $slots = append $slots $slotOut }}
{{- end }}
{{- if $slots }}
{{- $_ := set $out "slots" $slots }}
{{- end }}
{{- $replicas := list }}
{{- range $r, $replica := ($target.replicas | default list) }}
{{- $replicaOut := omit $replica "password" }}
{{- if or $replica.password $.Values.existingSecret }}
{{- $_ := set $replicaOut "password" (printf "${SK_TARGET_%d_REPLICA_%d_PASSWORD}" $t $r) }}
{{- end }}
{{- $replicas = append $replicas $replicaOut }}
{{- end }}
{{- if $replicas }}
{{- $_ := set $out "replicas" $replicas }}
{{- end }}
{{- $targets = append $targets $out }}
{{- end }}
{{- $servers := list }}
{{- range $i, $server := .Values.servers }}
{{- $out := omit $server "password" }}
{{- if or $server.password $.Values.existingSecret }}
{{- $_ := set $out "password" (printf "${SK_SERVER_%d_PASSWORD}" $i) }}
{{- end }}
{{- $servers = append $servers $out }}
{{- end }}
{{- $discovery := .Values.connectors.discovery | default dict }}
{{- $clusters := list }}
{{- range $i, $cluster := ($discovery.kafkaConnect | default list) }}
{{- $out := omit $cluster "password" "name" }}
{{- if or $cluster.password (and $.Values.existingSecret $cluster.username) }}
{{- $_ := set $out "password" (printf "${SK_CONNECT_%d_PASSWORD}" $i) }}
{{- end }}
{{- $clusters = append $clusters $out }}
{{- end }}
{{- $connectorDiscovery := dict "interval" ($discovery.interval | default "60s") "kafka-connect" $clusters "strimzi-namespaces" ($discovery.strimziNamespaces | default list) "on-lost" ($discovery.onLost | default "alert") "on-failed" ($discovery.onFailed | default "alert") "resnapshot" ($discovery.resnapshot | default "debezium-signal") "resnapshot-tables" ($discovery.resnapshotTables | default "all") "offsets" ($discovery.offsets | default "align") }}
{{- $tokens := list }}
{{- range $i, $token := .Values.api.tokens }}
{{- $tokens = append $tokens (dict "name" $token.name "role" $token.role "sha256" (printf "${SK_TOKEN_%d_SHA256}" $i)) }}
{{- end }}
{{- $api := dict "tokens" $tokens }}
{{- if .Values.api.kubernetes.enabled }}
{{- $kubernetes := dict "enabled" true "namespace" .Release.Namespace "cache-ttl" .Values.api.kubernetes.cacheTtl }}
{{- with .Values.api.kubernetes.audiences }}
{{- $_ := set $kubernetes "audiences" . }}
{{- end }}
{{- $_ := set $api "kubernetes" $kubernetes }}
{{- end }}
{{- $strimzi := dict "status-from" (.Values.connectors.strimzi.statusFrom | default "resource") }}
{{- $events := dict "enabled" (.Values.events.enabled | default false) }}
{{- $config := dict "slotkeeper" (dict "targets" $targets "servers" $servers "api" $api "connector-discovery" $connectorDiscovery "strimzi" $strimzi "events" $events) "management" (dict "server" (dict "port" .Values.service.managementPort)) }}
{{- with .Values.logging.structured }}
{{- $_ := set $config "logging" (dict "structured" (dict "format" (dict "console" .))) }}
{{- end }}
{{- toYaml (mergeOverwrite $config (deepCopy .Values.extraConfig)) }}
{{- end }}

{{/*
Namespaces whose KafkaConnector resources slot-keeper reads and changes: those of configured connectors
(connectors.strimzi.namespaces) and those it lists to discover connectors, each once, as a JSON array.
*/}}
{{- define "slot-keeper.strimziNamespaces" -}}
{{- $discovery := .Values.connectors.discovery | default dict -}}
{{- concat (.Values.connectors.strimzi.namespaces | default list) ($discovery.strimziNamespaces | default list) | uniq | toJson -}}
{{- end }}
