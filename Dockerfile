# minibroker's image. Build the jar first, then the image:
#   ./mvnw -q -B -pl broker -am package -DskipTests && docker build -t minibroker .
#   docker run -p 9092:9092 -v minibroker-data:/var/lib/minibroker minibroker
# Arguments after the image name are the broker's: --override key=value (Kafka's key names).
# BASE_IMAGE is any image with a Java 17+ runtime on PATH; CI builds on a local one (no registry there).
ARG BASE_IMAGE=eclipse-temurin:17-jre
FROM ${BASE_IMAGE}

COPY broker/target/minibroker.jar /opt/minibroker/minibroker.jar
COPY config/server.properties /opt/minibroker/config/server.properties

# The logs live in a volume so that data outlives the container.
VOLUME /var/lib/minibroker
EXPOSE 9092
WORKDIR /opt/minibroker

# Exec form: java is PID 1 and gets Docker's SIGTERM, on which the broker closes its logs cleanly.
# advertised.listeners stays localhost:9092 (server.properties) so that "docker run -p 9092:9092" just works.
ENTRYPOINT ["java", "-Xmx256m", "-jar", "/opt/minibroker/minibroker.jar", "/opt/minibroker/config/server.properties", \
            "--override", "log.dirs=/var/lib/minibroker/data"]
