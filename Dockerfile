# syntax=docker/dockerfile:1
# Build where a container engine exists:  docker build -t slot-keeper:0.1.0 .   (or podman / buildah)
# Runs under OpenShift's restricted-v2 SCC: an arbitrary UID in group 0, read-only root file system but /tmp.

FROM registry.access.redhat.com/ubi9/openjdk-17:1.21 AS build
WORKDIR /build
USER 0
COPY .mvn/ .mvn/
COPY mvnw pom.xml ./
RUN chmod +x mvnw && ./mvnw -B -ntp dependency:go-offline
COPY src/ src/
RUN ./mvnw -B -ntp -DskipTests package \
    && cp target/slot-keeper-*.jar application.jar \
    && java -Djarmode=tools -jar application.jar extract --layers --destination extracted

FROM registry.access.redhat.com/ubi9/openjdk-17-runtime:1.21
LABEL org.opencontainers.image.title="slot-keeper" \
      org.opencontainers.image.description="Keeps PostgreSQL logical replication slots healthy for CDC pipelines"
WORKDIR /deployments
# One image layer per Spring Boot layer, least often changed first, so that a code change rebuilds only the last.
# Owned by group 0 and group-readable (644/755): OpenShift runs the container as an arbitrary UID in group 0.
COPY --from=build --chown=185:0 /build/extracted/dependencies/ ./
COPY --from=build --chown=185:0 /build/extracted/spring-boot-loader/ ./
COPY --from=build --chown=185:0 /build/extracted/snapshot-dependencies/ ./
COPY --from=build --chown=185:0 /build/extracted/application/ ./
# Class-data sharing: a training run at build time loads every class the application needs (the context is refreshed,
# then the JVM exits) into an archive that each start maps instead of loading and verifying the classes again. The GC
# is named in both runs: the archive's heap objects serve only the collector it was made with, and the JVM would pick
# another one in a small pod than in the build. Written as root, readable by the arbitrary UID OpenShift runs it as.
USER 0
RUN java -XX:+UseG1GC -XX:ArchiveClassesAtExit=/deployments/application.jsa -Dspring.context.exit=onRefresh \
        -jar /deployments/application.jar --server.port=0 --management.server.port=0 \
    && chmod 644 /deployments/application.jsa
USER 185
EXPOSE 8080 9090
# Nothing is written at run time but to /tmp (an emptyDir in the chart); the configuration is mounted read-only.
# C1 only (-XX:TieredStopAtLevel=1) starts faster; slot-keeper waits on the network, and what it costs in CPU at 1,000
# targets is in bench/results/RESULTS.md (section 6), where these options are read from this file and measured. Here
# rather than in the ENTRYPOINT so that the chart's javaOpts (JDK_JAVA_OPTIONS, read later) can take it back.
ENV JAVA_TOOL_OPTIONS="-XX:MaxRAMPercentage=75 -XX:+ExitOnOutOfMemoryError -Djava.io.tmpdir=/tmp -XX:TieredStopAtLevel=1" \
    SPRING_CONFIG_ADDITIONAL_LOCATION="optional:file:/etc/slot-keeper/"
# A JVM that differs from the training run's ignores the archive and starts as it would without it.
ENTRYPOINT ["java", "-XX:+UseG1GC", "-XX:SharedArchiveFile=/deployments/application.jsa", "-jar", "/deployments/application.jar"]
