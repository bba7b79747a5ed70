#!/usr/bin/env bash
# Where a record's microseconds go in broker-perf.sh's e2e-rate case: one broker, FixedRateLatency against it, and
# `perf trace` of both processes' socket, file and wake-up system calls for a few seconds after the warm-up; then
# e2e-trace-stages.py splits each record's way (client send -> request on the wire -> broker read -> appended ->
# produce response; -> parked fetch woken -> records sent -> consumer read) into stages.
#   benchmarks/e2e-trace.sh minibroker          # or kafka (Apache Kafka 4.3.1, as broker-perf.sh starts it)
#   TRACE_SECONDS=3 E2E_RATE=1000 PERF_PORT_BASE=19150 KEEP_WORK=1 benchmarks/e2e-trace.sh kafka
# Needs perf with tracepoint access (root here). SKIP_BUILD=1 reuses the built jars, MINIBROKER_JAR another build.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/.." && pwd)"
impl="${1:-minibroker}"
base="${PERF_PORT_BASE:-29150}"
work="$(mktemp -d)"
broker_pid=""
cleanup() {
  [[ -n "$broker_pid" ]] && { kill "$broker_pid" 2>/dev/null || true; wait "$broker_pid" 2>/dev/null || true; }
  if [[ -n "${KEEP_WORK:-}" ]]; then echo "# kept $work" >&2; else rm -rf "$work"; fi
}
trap cleanup EXIT
cd "$root"
# shellcheck source=perf-lib.sh
source "$here/perf-lib.sh"
build_and_resolve
[[ -n "${SKIP_BUILD:-}" ]] || mvn -q -B -pl benchmarks -am package -DskipTests >&2

port=$base # one broker at a time: minibroker on base, or Kafka on base (its controller on base + 1)
if [[ "$impl" == minibroker ]]; then
  MINIBROKER_JAR="${MINIBROKER_JAR:-server/target/minibroker.jar}" bin/minibroker config/server.properties \
    --override "log.dirs=$work/minibroker" --override "listeners=PLAINTEXT://localhost:$port" \
    --override "advertised.listeners=PLAINTEXT://localhost:$port" > "$work/broker.log" 2>&1 &
  broker_pid=$!
else
  start_kafka 1 "$port" $((port + 1)) "1@localhost:$((port + 1))" "$(new_kafka_cluster_id)"
  broker_pid=$kafka_pid
fi
wait_for_port "$port"
create_topic "localhost:$port" e2e-trace 1 1
warmup=10
java -Xmx512m -cp benchmarks/target/benchmarks.jar io.minibroker.benchmarks.e2e.FixedRateLatency "localhost:$port" \
  e2e-trace --rate "${E2E_RATE:-1000}" --warmup-seconds "$warmup" --seconds 10 2>/dev/null | grep '^records=' &
driver=$!
sleep $((warmup + 2))
client_pid=$(pgrep -f "FixedRateLatency localhost:$port" | head -n 1)
echo "# tracing $impl (pid $broker_pid) and FixedRateLatency (pid $client_pid) for ${TRACE_SECONDS:-3} s; $(uptime)"
timeout -s INT "${TRACE_SECONDS:-3}" perf trace -p "$broker_pid,$client_pid" \
  -e read,write,writev,pwrite64,sendfile -o "$work/trace.txt" || true
wait "$driver"
python3 "$here/e2e-trace-stages.py" "$work/trace.txt"
