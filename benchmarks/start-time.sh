#!/usr/bin/env bash
# Start times a test suite waits for: minibroker in process (EmbeddedBroker) and in Docker (MiniKafkaContainer),
# to ready and to the first acknowledged record; plus the image's size.
#   benchmarks/start-time.sh                                  5 runs of each
#   RUNS=10 MINIBROKER_BASE_IMAGE=minibroker-jre:17 benchmarks/start-time.sh
# Builds the broker jar and the image (minibroker:bench: the Dockerfile's prebuilt stage, FROM $MINIBROKER_BASE_IMAGE, default
# eclipse-temurin:17-jre); without a Docker engine only the in-process figures are printed.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/.." && pwd)"
cd "$root"
export TESTCONTAINERS_RYUK_DISABLED=true TESTCONTAINERS_HOST_OVERRIDE=localhost TESTCONTAINERS_CHECKS_DISABLE=true
mvn -q -B package -pl benchmarks,server -am -DskipTests >&2
image_args=()
if docker info >/dev/null 2>&1; then
  DOCKER_BUILDKIT=0 docker build -q --target prebuilt --build-arg "BASE_IMAGE=${MINIBROKER_BASE_IMAGE:-eclipse-temurin:17-jre}" \
    -t minibroker:bench . >/dev/null
  echo "# image minibroker:bench: $(docker image inspect -f '{{.Size}}' minibroker:bench | awk '{printf "%.1f MB", $1/1e6}')"
  image_args=(--image minibroker:bench)
fi
echo "# reproduce: benchmarks/start-time.sh (RUNS=${RUNS:-5})"
exec java -Xmx256m -Dlogback.configurationFile="$here/start-time-logback.xml" \
  -cp "$here/target/benchmarks.jar" io.minibroker.benchmarks.start.StartTime --runs "${RUNS:-5}" "${image_args[@]}"
