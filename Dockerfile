# minibroker's image, from source:
#   docker build -t minibroker .
#   docker run -p 9092:9092 -v minibroker-data:/var/lib/minibroker minibroker
# Broker configuration as the apache/kafka image takes it: KAFKA_* environment variables (-e KAFKA_NUM_PARTITIONS=3:
# KAFKA_ and the key upper-cased, '.' as '_', '_' as '__', '-' as '___'), or, after the image name,
# --override key=value (which wins). The JVM's heap: -e KAFKA_HEAP_OPTS=-Xmx1g (default -Xms32m -Xmx256m,
# config/jvm-heap.options); its collector and Netty's buffer pool: KAFKA_JVM_PERFORMANCE_OPTS (default
# -XX:+UseSerialGC -Dio.netty.allocator.maxOrder=8, config/jvm-performance.options); other JVM options: KAFKA_OPTS.
#
# Build arguments:
#   BASE_IMAGE     the runtime: any image with a Java 17+ runtime on PATH (default eclipse-temurin:17-jre). CI builds
#                  on a local one (no registry is reachable there); nothing here needs a shell in it.
#   BUILDER_IMAGE  the build stage: a JDK 17 with Maven (default maven:3.9-eclipse-temurin-17; without a registry,
#                  docker/builder-image.sh makes a local one). Maven runs with that image's settings, or with yours
#                  (mirrors, proxies) handed in as a secret:
#                  docker build --secret id=maven-settings,src=$HOME/.m2/settings.xml -t minibroker .
#
# Two ways to the jar, each a stage ending in the same image:
#   (default)          compiles it in the build stage. Needs BuildKit, which builds only the stages the image
#                      needs: Docker's builder since 23.0, or buildx; on Docker 20.10 to 22.x, DOCKER_BUILDKIT=1 with
#                      a client of that age (a client of 23.0 or later talking to an older engine wants buildx).
#                      No "# syntax" line: the engine's own Dockerfile frontend (20.10 and later) has RUN --mount,
#                      and a syntax line would pull a frontend image from a registry.
#   --target prebuilt  takes the jar that `mvn -pl server -am package` left in server/target: how CI and the Docker
#                      tests build, and the way with Docker's legacy builder (DOCKER_BUILDKIT=0), which builds every
#                      stage before the target in order.
ARG BASE_IMAGE=eclipse-temurin:17-jre
ARG BUILDER_IMAGE=maven:3.9-eclipse-temurin-17

# The runtime, without its jar.
FROM ${BASE_IMAGE} AS runtime
COPY config/server.properties config/jvm-heap.options config/jvm-performance.options /opt/minibroker/config/
# The data volume belongs to the user the broker runs as: a uid without a name, as a base without a shell has no
# useradd. Data outlives the container in the volume.
COPY --chown=10001:10001 docker/data/ /var/lib/minibroker/
ENV KAFKA_LOG_DIRS=/var/lib/minibroker/data
VOLUME /var/lib/minibroker
EXPOSE 9092
WORKDIR /opt/minibroker
# Healthy once the broker answers ApiVersions on the client listener (served before SASL authentication, so no
# credentials are needed); a container whose listener is elsewhere passes the address: HealthCheck host:port.
HEALTHCHECK --interval=30s --timeout=10s --start-period=30s --retries=3 \
  CMD ["java", "-XX:SharedArchiveFile=/opt/minibroker/minibroker.jsa", "-Xmx32m", "-XX:TieredStopAtLevel=1", \
       "-cp", "/opt/minibroker/minibroker.jar", "io.minibroker.server.HealthCheck", "localhost:9092"]
# Exec form: java is PID 1 and gets Docker's SIGTERM, on which the broker closes its logs cleanly. The JVM's
# default options come from the argument files that bin/minibroker uses too; Launcher starts the broker in a JVM
# of its own when KAFKA_HEAP_OPTS, KAFKA_JVM_PERFORMANCE_OPTS or KAFKA_OPTS is set, without the options of the
# file each set variable replaces (it reads them from the files in /opt/minibroker/config, the config directory
# beside its jar, so the files must stay there, and the JVM must have been started with their options).
# advertised.listeners stays localhost:9092 (server.properties) so that "docker run -p 9092:9092" just works.
ENTRYPOINT ["java", "@/opt/minibroker/config/jvm-heap.options", "@/opt/minibroker/config/jvm-performance.options", \
            "-XX:SharedArchiveFile=/opt/minibroker/minibroker.jsa", \
            "-cp", "/opt/minibroker/minibroker.jar", "io.minibroker.server.Launcher", \
            "/opt/minibroker/config/server.properties"]

# The jar from the build context.
FROM runtime AS prebuilt
COPY server/target/minibroker.jar /opt/minibroker/minibroker.jar
# Class-data sharing, for start time: the runtime's own archive (a jlink'ed runtime has none; elsewhere this
# rebuilds it), then a self-check start of the broker, with the entry point's JVM options, that records the classes
# a start loads. A broken image fails here, at build time. Both as root: the first writes into the runtime.
RUN ["java", "-Xshare:dump"]
RUN ["java", "@/opt/minibroker/config/jvm-heap.options", "@/opt/minibroker/config/jvm-performance.options", \
     "-XX:ArchiveClassesAtExit=/opt/minibroker/minibroker.jsa", \
     "-cp", "/opt/minibroker/minibroker.jar", "io.minibroker.broker.server.SelfCheck"]
USER 10001:10001

# The jar compiled from the sources. The settings secret is optional (a missing secret is no mount), the cache
# keeps downloaded dependencies across builds.
FROM ${BUILDER_IMAGE} AS build
WORKDIR /src
COPY . .
RUN --mount=type=secret,id=maven-settings,target=/root/.m2/settings.xml \
    --mount=type=cache,target=/root/.m2/repository \
    ["mvn", "-B", "-q", "-pl", "server", "-am", "package", "-Dmaven.test.skip=true"]

# The default: the runtime with the compiled jar, finished as the prebuilt stage finishes it.
FROM runtime
COPY --from=build /src/server/target/minibroker.jar /opt/minibroker/minibroker.jar
RUN ["java", "-Xshare:dump"]
RUN ["java", "@/opt/minibroker/config/jvm-heap.options", "@/opt/minibroker/config/jvm-performance.options", \
     "-XX:ArchiveClassesAtExit=/opt/minibroker/minibroker.jsa", \
     "-cp", "/opt/minibroker/minibroker.jar", "io.minibroker.broker.server.SelfCheck"]
USER 10001:10001
