# minibroker's image. Build the jar first, then the image:
#   mvn -q -B -pl broker -am package -DskipTests && docker build -t minibroker .
#   docker run -p 9092:9092 -v minibroker-data:/var/lib/minibroker minibroker
# Arguments after the image name are the broker's: --override key=value (Kafka's key names).
# BASE_IMAGE is any image with a Java 17+ runtime on PATH; CI builds on a local one (no registry there).
ARG BASE_IMAGE=eclipse-temurin:17-jre
FROM ${BASE_IMAGE}

COPY broker/target/minibroker.jar /opt/minibroker/minibroker.jar
COPY config/server.properties /opt/minibroker/config/server.properties

# Class-data sharing, for start time: the runtime's own archive (a jlink'ed runtime has none; elsewhere this
# rebuilds it), then a self-check start of the broker that records the classes a start loads. A broken image
# fails here, at build time.
RUN ["java", "-Xshare:dump"]
RUN ["java", "-XX:ArchiveClassesAtExit=/opt/minibroker/minibroker.jsa", "-Xmx256m", \
     "-cp", "/opt/minibroker/minibroker.jar", "io.minibroker.broker.server.SelfCheck"]

# The logs live in a volume so that data outlives the container.
VOLUME /var/lib/minibroker
EXPOSE 9092
WORKDIR /opt/minibroker

# Exec form: java is PID 1 and gets Docker's SIGTERM, on which the broker closes its logs cleanly.
# advertised.listeners stays localhost:9092 (server.properties) so that "docker run -p 9092:9092" just works.
ENTRYPOINT ["java", "-XX:SharedArchiveFile=/opt/minibroker/minibroker.jsa", "-Xmx256m", "-jar", "/opt/minibroker/minibroker.jar", "/opt/minibroker/config/server.properties", \
            "--override", "log.dirs=/var/lib/minibroker/data"]
