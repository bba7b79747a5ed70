#!/usr/bin/env bash
# kafka-producer-perf-test (ProducerPerformance from kafka-tools 4.3.1) against minibroker, then against a real
# Apache Kafka 4.3.1 single-node KRaft broker, one after the other on this machine, with acks=1 and acks=all:
#   benchmarks/producer-perf.sh                 1,000,000 records of 100 bytes per run
#   RECORDS=200000 benchmarks/producer-perf.sh  a shorter run
#   BASELINE_JAR=/tmp/wt-old/server/target/minibroker.jar benchmarks/producer-perf.sh
#       also runs that build of minibroker (say, another commit's, built in a worktree of its own) as
#       "minibroker-baseline", right before this one, so that a change is measured against it in the same run;
#       BASELINE_LAST=1 runs it right after this one instead, to alternate the order between runs
# JVMs: minibroker through bin/minibroker (its default options, config/jvm-*.options), Kafka with a 1 GB heap. Each broker gets a fresh log directory and a fresh topic per run.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/.." && pwd)"
records="${RECORDS:-1000000}"
port=29092
controller_port=29093
work="$(mktemp -d)"
broker_pid=""
cleanup() {
  if [[ -n "$broker_pid" ]]; then kill "$broker_pid" 2>/dev/null || true; wait "$broker_pid" 2>/dev/null || true; fi
  rm -rf "$work"
}
trap cleanup EXIT

cd "$root"
# shellcheck source=perf-lib.sh
source "$here/perf-lib.sh"
build_and_resolve

stop_broker() {
  kill "$broker_pid"; wait "$broker_pid" 2>/dev/null || true; broker_pid=""
}


declare -A result
run_all() {
  local impl="$1"
  local load_before load_after
  for acks in 1 all; do
    read -r load_before _ < /proc/loadavg
    result["$impl,$acks"]="$(perf "localhost:$port" "perf-$impl-acks-$acks" "$acks" "$records")"
    read -r load_after _ < /proc/loadavg
    # The machine's one-minute load average before and after the run: figures taken under other load differ.
    echo "impl=$impl acks=$acks records=$records ${result["$impl,$acks"]} $load_before $load_after" | \
      awk '{printf "%s %s %s records_per_sec=%s mb_per_sec=%s p50_ms=%s p99_ms=%s load1=%s..%s\n", $1, $2, $3, $4, $5, $6, $7, $8, $9}'
  done
}

# run_minibroker IMPL JAR: one build of minibroker, fresh log directory
run_minibroker() {
  echo "# $1 (bin/minibroker's JVM options): $2" >&2
  MINIBROKER_JAR="$2" bin/minibroker config/server.properties \
    --override "listeners=PLAINTEXT://localhost:$port" --override "advertised.listeners=PLAINTEXT://localhost:$port" \
    --override "log.dirs=$work/$1" > "$work/$1.log" 2>&1 &
  broker_pid=$!
  wait_for_port "$port"
  run_all "$1"
  stop_broker
}

baseline="${BASELINE_JAR:-}"
if [[ -n "$baseline" && "${BASELINE_LAST:-0}" != 1 ]]; then run_minibroker minibroker-baseline "$baseline"; fi
run_minibroker minibroker server/target/minibroker.jar
if [[ -n "$baseline" && "${BASELINE_LAST:-0}" == 1 ]]; then run_minibroker minibroker-baseline "$baseline"; fi

echo "# Apache Kafka 4.3.1, KRaft single node (heap 1 GB)" >&2
start_kafka 1 "$port" "$controller_port" "1@localhost:$controller_port" "$(new_kafka_cluster_id)"
broker_pid=$kafka_pid
wait_for_port "$port"
sleep 3 # the controller elects itself and the broker registers before the first metadata request
run_all kafka-4.3.1
stop_broker

echo "# summary (ratio = minibroker / kafka; latency ratio below 1 means minibroker is faster)"
for acks in 1 all; do
  read -r mr mm mp50 mp99 <<< "${result["minibroker,$acks"]}"
  read -r kr km kp50 kp99 <<< "${result["kafka-4.3.1,$acks"]}"
  awk -v a="$acks" -v mr="$mr" -v kr="$kr" -v mp="$mp99" -v kp="$kp99" -v m50="$mp50" -v k50="$kp50" 'BEGIN {
    printf "acks=%s records_per_sec minibroker=%s kafka=%s ratio=%.2f p50_ms minibroker=%s kafka=%s p99_ms minibroker=%s kafka=%s p99_ratio=%.2f\n",
      a, mr, kr, mr / kr, m50, k50, mp, kp, (kp > 0 ? mp / kp : 0) }'
done
if [[ -n "$baseline" ]]; then
  echo "# this build against the baseline (ratio = minibroker / minibroker-baseline)"
  for acks in 1 all; do
    read -r mr _ mp50 mp99 <<< "${result["minibroker,$acks"]}"
    read -r br _ bp50 bp99 <<< "${result["minibroker-baseline,$acks"]}"
    awk -v a="$acks" -v mr="$mr" -v br="$br" -v m50="$mp50" -v b50="$bp50" -v mp="$mp99" -v bp="$bp99" 'BEGIN {
      printf "acks=%s records_per_sec minibroker=%s baseline=%s ratio=%.2f p50_ms minibroker=%s baseline=%s p99_ms minibroker=%s baseline=%s\n",
        a, mr, br, mr / br, m50, b50, mp, bp }'
  done
fi
echo "# reproduce: RECORDS=$records${baseline:+ BASELINE_JAR=$baseline} benchmarks/producer-perf.sh"
