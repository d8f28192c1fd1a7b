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
USER 185
EXPOSE 8080 9090
# Nothing is written at run time but to /tmp (an emptyDir in the chart); the configuration is mounted read-only.
ENV JAVA_TOOL_OPTIONS="-XX:MaxRAMPercentage=75 -XX:+ExitOnOutOfMemoryError -Djava.io.tmpdir=/tmp" \
    SPRING_CONFIG_ADDITIONAL_LOCATION="optional:file:/etc/slot-keeper/"
ENTRYPOINT ["java", "-jar", "/deployments/application.jar"]
