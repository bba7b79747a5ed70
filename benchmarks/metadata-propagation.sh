#!/usr/bin/env bash
# How long a controller's change takes to reach every broker of a three-node cluster (in one JVM, Kafka's default
# broker.heartbeat.interval.ms and broker.session.timeout.ms): from a topic's CreateTopics answer, and from a
# preferred ElectLeaders answer that moves its leader, until every broker's own Metadata answer shows the topic
# with that leader. p50/p99/max over TOPICS topics (one partition each, replicas [1, 2, 0]).
#   benchmarks/metadata-propagation.sh             100 topics
#   TOPICS=20 benchmarks/metadata-propagation.sh   a shorter run
#   TMPDIR=/dev/shm benchmarks/metadata-propagation.sh   the nodes' logs on tmpfs: without the disk's fsync time
# SKIP_BUILD=1 reuses benchmarks/target/benchmarks.jar. The nodes' log directories go under TMPDIR (default /tmp).
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/.." && pwd)"
topics="${TOPICS:-100}"
cd "$root"
if [ -z "${SKIP_BUILD:-}" ]; then
  mvn -q -B package -pl benchmarks -am -DskipTests >&2
fi
tmp="${TMPDIR:-/tmp}"
echo "# reproduce: TOPICS=$topics TMPDIR=$tmp benchmarks/metadata-propagation.sh (at $(git rev-parse --short HEAD))"
exec java -Xmx512m -Djava.io.tmpdir="$tmp" -Dlogback.configurationFile="$here/start-time-logback.xml" \
  -cp "$here/target/benchmarks.jar" io.minibroker.benchmarks.metadata.MetadataPropagation --topics "$topics"
