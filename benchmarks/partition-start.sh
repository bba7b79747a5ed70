#!/usr/bin/env bash
# minibroker's start time on a log of many partitions, alone (the scale-partitions case of broker-perf.sh runs
# Kafka beside it): builds a log directory holding one topic of N partitions once, then starts the broker on it RUNS
# times, each time from launch until Metadata shows a leader for every partition (PartitionScale ready), and stops
# it cleanly. One line a run: that time (start_ms); the part of it spent opening the logs (open_ms: from the broker's
# first "Opened <partition>" line to its "Loaded N partition logs" line, so older builds are measured alike), less
# noisy on a busy machine than the whole; and the load average (1-minute) after the run.
#   benchmarks/partition-start.sh [N=10000] [RUNS=3]
#   MINIBROKER_JAR=/tmp/other.jar DATA_DIR=/tmp/p10k PERF_PORT_BASE=19500 SKIP_BUILD=1 benchmarks/partition-start.sh
# DATA_DIR keeps the log directory between invocations (it is created when missing), so two builds can be timed on
# the same log. Uses port PERF_PORT_BASE (default 29190). OVERRIDES="key=value ..." are passed on to the broker.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/.." && pwd)"
n="${1:-10000}"; runs="${2:-3}"
port="${PERF_PORT_BASE:-29190}"
work="$(mktemp -d)"
data="${DATA_DIR:-$work/data}"
jar="${MINIBROKER_JAR:-server/target/minibroker.jar}"
pid=""
cd "$root"
# shellcheck source=perf-lib.sh
source "$here/perf-lib.sh"
trap minibroker_cleanup EXIT
build_and_resolve
[[ -n "${SKIP_BUILD:-}" ]] || mvn -q -B -pl benchmarks -am package -DskipTests >&2

archive_classes "$jar"
overrides=()
for kv in ${OVERRIDES:-}; do overrides+=(--override "$kv"); done
start() { start_one_minibroker "$jar" "${overrides[@]}"; }

if [[ ! -d "$data" ]]; then
  echo "# creating $n partitions in $data" >&2
  start; wait_for_port "$port"
  create_topic "localhost:$port" start-p "$n" 1
  stop_minibroker
fi
for run in $(seq 1 "$runs"); do
  launch=$(date +%s%3N)
  start
  ms=$(java -Xmx512m -cp benchmarks/target/benchmarks.jar io.minibroker.benchmarks.scale.PartitionScale ready \
    localhost "$port" start-p "$n" "$launch")
  stop_minibroker
  # Log lines start "[2026-11-26 23:52:00,220]": milliseconds of the day, from the first Opened to Loaded.
  opened=$(awk -F'[][ :,]+' '/Opened .* with offsets/ && !first { first = (($3 * 60 + $4) * 60 + $5) * 1000 + $6 }
    /Loaded [0-9]+ partition logs/ { print (($3 * 60 + $4) * 60 + $5) * 1000 + $6 - first }' "$work/broker.log")
  echo "partitions=$n run=$run start_ms=$ms open_ms=$opened load=$(cut -d' ' -f1 /proc/loadavg)"
done
