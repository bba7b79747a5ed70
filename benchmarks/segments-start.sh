#!/usr/bin/env bash
# What opening the logs costs when every partition has data in several segments: builds (once, when DATA_DIR is
# missing) a log directory holding topic start-p of N partitions, each rolled into several segments with data
# (log.roll.ms=4000 while ROUNDS rounds of records go round-robin to every partition), then starts each jar of JARS in
# turn, RUNS times (jar A, jar B, jar A, ...), each time from launch to the broker's "Loaded N partition logs" line,
# and stops it cleanly once it has started. One line a start: the broker JVM's CPU seconds at that line
# (utime+stime from /proc/<pid>/stat, less noisy than wall time on a busy machine), its read syscalls and bytes read
# so far (/proc/<pid>/io), the opening's own figure from the "Loaded" line, and the load average (1-minute).
# With STRACE=1 each start runs under strace instead and prints how many files of each suffix of the log directory
# it opened before "Loaded" (slower: for the counts only).
#   JARS="/tmp/before.jar server/target/minibroker.jar" benchmarks/segments-start.sh [N=1000] [RUNS=3] [ROUNDS=3]
# DATA_DIR (default /tmp/segments-start-<N>) is kept between invocations. Uses port PERF_PORT_BASE (default 29195).
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/.." && pwd)"
n="${1:-1000}"; runs="${2:-3}"; rounds="${3:-3}"
port="${PERF_PORT_BASE:-29195}"
data="${DATA_DIR:-/tmp/segments-start-$n}"
read -r -a jars <<< "${JARS:-server/target/minibroker.jar}"
work="$(mktemp -d)"
pid=""
cd "$root"
# shellcheck source=perf-lib.sh
source "$here/perf-lib.sh"
trap minibroker_cleanup EXIT
SKIP_BUILD=1 build_and_resolve
for jar in "${jars[@]}"; do
  archive_classes "$jar"
done
[[ -z "${STRACE:-}" ]] || minibroker_wrapper=(strace -f -qq -e trace=openat -o "$work/trace")

await() { # PATTERN: waits for a line of the broker's log
  for _ in $(seq 1 2400); do grep -q "$1" "$work/broker.log" 2>/dev/null && return 0; sleep 0.05; done
  echo "the broker never logged '$1'" >&2; return 1
}

if [[ ! -d "$data" ]]; then
  echo "# creating $n partitions with $rounds rounds of data in $data" >&2
  start_one_minibroker "${jars[0]}" --override log.roll.ms=4000 --override log.roll.jitter.ms=0
  wait_for_port "$port"
  create_topic "localhost:$port" start-p "$n" 1
  for _ in $(seq 1 "$rounds"); do
    java $log4j -cp "$kafka_cp" org.apache.kafka.tools.ProducerPerformance --topic start-p \
      --num-records $((n * 12)) --record-size 1000 --throughput -1 --producer-props "bootstrap.servers=localhost:$port" \
      linger.ms=20 partitioner.class=org.apache.kafka.clients.producer.RoundRobinPartitioner > /dev/null
    sleep 5 # past log.roll.ms: the next round's first batch rolls each partition
  done
  await "started (Broker)"; stop_minibroker
  echo "# $(find "$data" -name '*.log' | wc -l) segments" >&2
fi

for run in $(seq 1 "$runs"); do
  for jar in "${jars[@]}"; do
    start_one_minibroker "$jar"
    await "Loaded [0-9]* partition logs"
    jvm=$(minibroker_jvm)
    figures=""
    if [[ -z "${STRACE:-}" ]]; then
      cpu=$(awk -v hz="$(getconf CLK_TCK)" '{printf "%.2f", ($14 + $15) / hz}' "/proc/$jvm/stat")
      figures="cpu_s=$cpu $(awk '/^syscr/ {r = $2} /^rchar/ {c = $2} END {print "syscr=" r " read_bytes=" c}' "/proc/$jvm/io")"
    else
      cp "$work/trace" "$work/trace.loaded"
    fi
    loaded=$(grep -o "partition logs from .* in [0-9]* ms after an* [a-z]*" "$work/broker.log" | sed 's/.* in //')
    await "started (Broker)"; sleep 1; stop_minibroker # stopped once started: a stop while starting may leave no clean-shutdown mark
    echo "jar=$jar run=$run $figures loaded=\"$loaded\" load=$(cut -d' ' -f1 /proc/loadavg)"
    if [[ -n "${STRACE:-}" ]]; then
      grep "$data" "$work/trace.loaded" | grep -v ENOENT | grep -o '\.[a-z]*"' | tr -d '"' | sort | uniq -c \
        | awk '{printf "  %s=%s", $2, $1} END {print ""}'
    fi
  done
done
