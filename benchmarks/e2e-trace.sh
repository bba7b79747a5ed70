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
port="${PERF_PORT_BASE:-29150}" # one broker at a time: minibroker on it, or Kafka on it (its controller on port + 1)
work="$(mktemp -d)"
data="$work/minibroker"
pid=""
cd "$root"
# shellcheck source=perf-lib.sh
source "$here/perf-lib.sh"
trap minibroker_cleanup EXIT
build_and_resolve
[[ -n "${SKIP_BUILD:-}" ]] || mvn -q -B -pl benchmarks -am package -DskipTests >&2

if [[ "$impl" == minibroker ]]; then
  start_one_minibroker "${MINIBROKER_JAR:-server/target/minibroker.jar}"
else
  start_kafka 1 "$port" $((port + 1)) "1@localhost:$((port + 1))" "$(new_kafka_cluster_id)"
  pid=$kafka_pid
fi
wait_for_port "$port"
create_topic "localhost:$port" e2e-trace 1 1
warmup=10
java -Xmx512m -cp benchmarks/target/benchmarks.jar io.minibroker.benchmarks.e2e.FixedRateLatency "localhost:$port" \
  e2e-trace --rate "${E2E_RATE:-1000}" --warmup-seconds "$warmup" --seconds 10 2>/dev/null | grep '^records=' &
driver=$!
sleep $((warmup + 2))
client_pid=$(pgrep -f "FixedRateLatency localhost:$port" | head -n 1)
echo "# tracing $impl (pid $pid) and FixedRateLatency (pid $client_pid) for ${TRACE_SECONDS:-3} s; $(uptime)"
timeout -s INT "${TRACE_SECONDS:-3}" perf trace -p "$pid,$client_pid" \
  -e read,write,writev,pwrite64,sendfile -o "$work/trace.txt" || true
wait "$driver"
python3 "$here/e2e-trace-stages.py" "$work/trace.txt"
