#!/usr/bin/env bash
# A share consumer draining a backlog: the broker's CPU seconds and peak RSS, and the consumer's throughput.
#   benchmarks/share-consume.sh [RECORDS, default 300000] [RECORD_SIZE, default 1024] [CONSUMERS, default 1]
#   MINIBROKER_JAR=/tmp/other.jar benchmarks/share-consume.sh    another build (else server/target/minibroker.jar)
#   PERF_PORT_BASE=19350 (default 29290)                           the broker's port
#   FETCH_SIZE=1048576                                            the consumers' fetch.max.bytes (default 50 MiB,
#                                                                 the client's default; the tool's own is 1 MiB)
#   KAFKA_CP=/path/to/classpath-file                              Kafka 4.3.1's tools (else resolved with Maven)
# One broker through bin/minibroker (its default JVM options: heap up to 256 MB), one topic of one partition, RECORDS
# records produced first, then the group set to share.auto.offset.reset=earliest and kafka-tools' ShareConsumerPerformance
# (CONSUMERS KafkaShareConsumers of one group: fetch.max.bytes 50 MiB, max.poll.records 500) consumes them all. Prints one line:
# records, consume seconds, records/s, the broker's CPU seconds during the consume, its peak RSS (MB).
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/.." && pwd)"
records="${1:-300000}"; size="${2:-1024}"; consumers="${3:-1}"
port="${PERF_PORT_BASE:-29290}"
work="$(mktemp -d)"
# shellcheck source=perf-lib.sh
source "$here/perf-lib.sh"
if [[ -n "${KAFKA_CP:-}" ]]; then
  kafka_cp="$(cat "$KAFKA_CP")"; log4j="-Dlog4j2.configurationFile=$root/benchmarks/producer-perf/log4j2.properties"
else
  SKIP_BUILD=1 build_and_resolve
fi
cd "$root"
MINIBROKER_JAR="${MINIBROKER_JAR:-server/target/minibroker.jar}" bin/minibroker config/server.properties \
  --override "log.dirs=$work/log" --override "listeners=PLAINTEXT://localhost:$port" \
  --override "advertised.listeners=PLAINTEXT://localhost:$port" > "$work/broker.log" 2>&1 &
broker=$!
trap 'kill "$broker" 2>/dev/null; wait "$broker" 2>/dev/null; rm -rf "$work"' EXIT
wait_for_port "$port"
bootstrap="localhost:$port"
create_topic "$bootstrap" share-perf 1 1
perf "$bootstrap" share-perf 1 "$records" "$size" > /dev/null
group="share-perf-$(date +%s%N)"
java $log4j -cp "$kafka_cp" kafka.admin.ConfigCommand --bootstrap-server "$bootstrap" --alter --entity-type groups \
  --entity-name "$group" --add-config share.auto.offset.reset=earliest > /dev/null
cpu() { sed -E 's/.*\) //' "/proc/$broker/stat" | awk '{print $12 + $13}'; }
before=$(cpu); start=$(date +%s.%N)
java -Xmx512m $log4j -cp "$kafka_cp" org.apache.kafka.tools.ShareConsumerPerformance --bootstrap-server "$bootstrap" \
  --topic share-perf --group "$group" --num-records "$records" --threads "$consumers" --fetch-size "${FETCH_SIZE:-52428800}" --timeout 60000 > "$work/consume.log" 2>&1
end=$(date +%s.%N); after=$(cpu)
hwm=$(awk '$1 == "VmHWM:" {print $2}' "/proc/$broker/status")
awk -v r="$records" -v s="$start" -v e="$end" -v c=$((after - before)) -v t="$(getconf CLK_TCK)" -v h="$hwm" -v n="$consumers" \
  'BEGIN { printf "records %d  consumers %d  consume_s %.1f  records/s %.0f  broker_cpu_s %.2f  broker_peak_rss_mb %.0f\n",
           r, n, e - s, r / (e - s), c / t, h / 1024 }'
if grep -q OutOfMemoryError "$work/broker.log"; then echo "the broker ran out of memory" >&2; exit 1; fi
