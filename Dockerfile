# Build where a container engine exists:  podman build -t slot-keeper:0.1.0 .   (or docker / buildah)
# Runs under OpenShift's restricted-v2 SCC: an arbitrary UID in group 0, read-only root file system but /tmp.
# ImageTests (src/test/java/io/slotkeeper/deploy, part of ./mvnw verify where podman can run) builds this file
# unchanged and runs the image as that SCC does.

FROM registry.access.redhat.com/ubi9/openjdk-17:1.21 AS build
WORKDIR /build
USER 0
COPY .mvn/ .mvn/
COPY mvnw pom.xml ./
RUN chmod +x mvnw && ./mvnw -B -ntp dependency:go-offline
COPY src/ src/
# The loader and snapshot-dependencies layers are empty for this project (the extracted jar starts without Spring
# Boot's loader): whatever they hold joins the application layer, so the image has no always-empty layers. The
# dependencies are laid out from / (deployments/lib/…) with one fixed time on every file and directory, /deployments
# included, so that their layer's digest changes only when a jar does, not on every build. The Debezium extension
# (debezium-extension/, built by antrun) is an artifact of its own, not part of the image: skipped here.
RUN ./mvnw -B -ntp -DskipTests -Dmaven.antrun.skip=true package \
    && cp target/slot-keeper-*.jar application.jar \
    && java -Djarmode=tools -jar application.jar extract --layers --destination extracted \
    && cp -a extracted/spring-boot-loader/. extracted/snapshot-dependencies/. extracted/application/ \
    && mkdir dependencies && mv extracted/dependencies dependencies/deployments \
    && find dependencies -exec touch --no-dereference --date=@0 {} +

FROM registry.access.redhat.com/ubi9/openjdk-17-runtime:1.21
ARG VERSION=0.1.0
# The base image's labels describe OpenJDK; these describe what this image is.
LABEL name="slot-keeper" \
      version="${VERSION}" \
      summary="Keeps PostgreSQL logical replication slots healthy for CDC pipelines" \
      description="Heartbeats, heals and watches PostgreSQL logical replication slots and hands their connectors over" \
      io.k8s.display-name="slot-keeper" \
      io.k8s.description="Heartbeats, heals and watches PostgreSQL logical replication slots and hands their connectors over" \
      io.openshift.tags="postgresql,replication,cdc,debezium" \
      io.openshift.expose-services="8080:http,9090:management" \
      usage="helm install slot-keeper helm/slot-keeper (README: Deploying on OpenShift)" \
      com.redhat.component="slot-keeper" \
      maintainer="slot-keeper" \
      vendor="slot-keeper" \
      org.opencontainers.image.title="slot-keeper" \
      org.opencontainers.image.version="${VERSION}" \
      org.opencontainers.image.description="Keeps PostgreSQL logical replication slots healthy for CDC pipelines"
WORKDIR /deployments
# Least often changed first: the dependencies, then the application. Owned by group 0 and group-readable (644/755):
# OpenShift runs the container as an arbitrary UID in group 0.
COPY --from=build --chown=185:0 /build/dependencies/ /
COPY --from=build --chown=185:0 /build/extracted/application/ ./
# Class-data sharing: a training run at build time loads every class the application needs (the context is refreshed,
# then the JVM exits) into an archive that each start maps instead of loading and verifying the classes again. It
# records the application jar, so it is made anew with each build: its layer comes last. The GC is named in both runs:
# the archive's heap objects serve only the collector it was made with. Written as root, readable by the arbitrary
# UID OpenShift runs it as; the run's temporary files are removed in the same step, so /tmp ships empty.
USER 0
RUN java -XX:+UseG1GC -XX:ArchiveClassesAtExit=/deployments/application.jsa -Dspring.context.exit=onRefresh \
        -XX:-UsePerfData -jar /deployments/application.jar --server.port=0 --management.server.port=0 \
    && chmod 644 /deployments/application.jsa \
    && find /tmp -mindepth 1 -delete
USER 185
EXPOSE 8080 9090
# The memory model, for the chart's default 512 Mi limit and any other: the heap is 60 % of the container's limit; what
# is not heap is bounded too (metaspace, code cache, direct buffers, thread stacks, malloc arenas), so heap + the rest
# stay below the limit with the heap fully used and the kernel never kills the JVM before ExitOnOutOfMemoryError can
# (README, Memory). C1 only (-XX:TieredStopAtLevel=1) starts faster; slot-keeper waits on the network, and what it costs
# in CPU at 1,000 targets is in bench/results/RESULTS.md (section 6). Here rather than in the ENTRYPOINT so that the
# chart's javaOpts (JDK_JAVA_OPTIONS, read later) can take any of it back. Actuator answers on its own port, 9090,
# with or without the chart.
ENV JAVA_TOOL_OPTIONS="-XX:MaxRAMPercentage=60 -XX:MaxMetaspaceSize=96m -XX:ReservedCodeCacheSize=48m -XX:MaxDirectMemorySize=32m -Xss512k -XX:+ExitOnOutOfMemoryError -Djava.io.tmpdir=/tmp -XX:TieredStopAtLevel=1" \
    MALLOC_ARENA_MAX=2 \
    MANAGEMENT_SERVER_PORT=9090 \
    SPRING_CONFIG_ADDITIONAL_LOCATION="optional:file:/etc/slot-keeper/"
# A JVM that differs from the training run's ignores the archive and starts as it would without it.
ENTRYPOINT ["java", "-XX:+UseG1GC", "-XX:SharedArchiveFile=/deployments/application.jsa", "-jar", "/deployments/application.jar"]
