#!/usr/bin/env bash
# kafka-producer-perf-test (kafka-tools 4.3.1) against a three-node minibroker cluster started from
# config/cluster/node-{0,1,2}.properties (ports 9092-9096 on this machine), on a topic of 3 partitions with
# replication factor 3: acks=1 then acks=all, one after the other in one run, with acks=all / acks=1.
#   benchmarks/cluster-perf.sh                 1,000,000 records of 100 bytes per run
#   RECORDS=200000 benchmarks/cluster-perf.sh  a shorter run
# Each node through bin/minibroker, with its default JVM options (config/jvm-*.options). Each node gets a fresh log directory.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/.." && pwd)"
records="${RECORDS:-1000000}"
work="$(mktemp -d)"
pids=()
cleanup() {
  for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; done
  for pid in "${pids[@]}"; do wait "$pid" 2>/dev/null || true; done
  rm -rf "$work"
}
trap cleanup EXIT

cd "$root"
# shellcheck source=perf-lib.sh
source "$here/perf-lib.sh"
build_and_resolve

echo "# three minibroker nodes (bin/minibroker's JVM options), node 0 also the controller" >&2
for node in 0 1 2; do
  MINIBROKER_JAR=server/target/minibroker.jar bin/minibroker "config/cluster/node-$node.properties" \
    --override "log.dirs=$work/node-$node" > "$work/node-$node.log" 2>&1 &
  pids+=("$!")
done
for port in 9092 9094 9096; do wait_for_port "$port"; done
bootstrap=localhost:9092,localhost:9094,localhost:9096

declare -A result
for acks in 1 all; do
  topic="cluster-perf-acks-$acks"
  create_topic "$bootstrap" "$topic" 3 3
  result["$acks"]="$(perf "$bootstrap" "$topic" "$acks" "$records")"
  echo "impl=minibroker-3-nodes rf=3 acks=$acks records=$records ${result["$acks"]}" | \
    awk '{printf "%s %s %s %s records_per_sec=%s mb_per_sec=%s p50_ms=%s p99_ms=%s\n", $1, $2, $3, $4, $5, $6, $7, $8}'
done

read -r r1 _ _ p1 <<< "${result["1"]}"
read -r ra _ _ pa <<< "${result["all"]}"
awk -v r1="$r1" -v ra="$ra" -v p1="$p1" -v pa="$pa" 'BEGIN {
  printf "summary acks_all_over_acks_1 records_per_sec=%.2f p99_ms acks_1=%s acks_all=%s\n", ra / r1, p1, pa }'
echo "# reproduce: RECORDS=$records benchmarks/cluster-perf.sh"
