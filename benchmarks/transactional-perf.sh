#!/usr/bin/env bash
# Transactional throughput and read_committed end-to-end latency, minibroker and Apache Kafka 4.3.1 (single-node
# KRaft) alternating on this machine, ROUNDS times (default 1):
#   benchmarks/transactional-perf.sh                  1,000,000 records of 100 bytes per throughput run
#   RECORDS=200000 benchmarks/transactional-perf.sh   a shorter run
# Throughput: ProducerPerformance (kafka-tools 4.3.1) with --transactional-id and --transaction-duration-ms 100.
# Latency: benchmarks/src/.../txn/TransactionalLatency.java, a transactional producer at LATENCY_RATE records/s
# (default 2000) committing every 100 ms, LATENCY_RECORDS records (default 20000), read by a read_committed
# consumer; p50/p99/p99.9 of send-to-receive, and of commit-to-receive per transaction (commitTransaction() called
# to its first record read: the broker's share of the wait). JVMs: minibroker through bin/minibroker (its default
# options), Kafka with a 1 GB heap; fresh log directories. The latency driver first sends, commits and reads
# WARMUP_SECONDS (default 5) of records the same way without measuring them: each broker's first transactions after
# its throughput run (its read_committed fetch path not yet run) and the driver's own cold clients are left out of
# both brokers' figures alike.
# IMPLS="minibroker" runs minibroker alone (default "minibroker kafka"); MINIBROKER_JAR another build of it (with
# SKIP_BUILD=1: a before/after comparison); PORT and CONTROLLER_PORT the ports (default 29292, 29293).
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/.." && pwd)"
records="${RECORDS:-1000000}"
rounds="${ROUNDS:-1}"
latency_records="${LATENCY_RECORDS:-20000}"
latency_rate="${LATENCY_RATE:-2000}"
warmup_seconds="${WARMUP_SECONDS:-5}"
port="${PORT:-29292}"
controller_port="${CONTROLLER_PORT:-29293}"
impls="${IMPLS:-minibroker kafka}"
minibroker_jar="${MINIBROKER_JAR:-server/target/minibroker.jar}"
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
driver="$here/src/main/java/io/minibroker/benchmarks/txn/TransactionalLatency.java"

stop_broker() {
  kill "$broker_pid"; wait "$broker_pid" 2>/dev/null || true; broker_pid=""
}

start_minibroker() {
  MINIBROKER_JAR="$minibroker_jar" bin/minibroker config/server.properties \
    --override "listeners=PLAINTEXT://localhost:$port" --override "advertised.listeners=PLAINTEXT://localhost:$port" \
    --override "log.dirs=$work/minibroker-$1" --override group.initial.rebalance.delay.ms=0 \
    > "$work/minibroker.log" 2>&1 &
  broker_pid=$!
  wait_for_port "$port"
}

# start_kafka_single: one Kafka 4.3.1 KRaft node on $port (perf-lib.sh's start_kafka, fresh log directory).
start_kafka_single() {
  start_kafka 1 "$port" "$controller_port" "1@localhost:$controller_port" "$(new_kafka_cluster_id)"
  broker_pid=$kafka_pid
  wait_for_port "$port"
  sleep 3 # the controller elects itself and the broker registers before the first metadata request
}

# run IMPL ROUND: one throughput and one latency figure against the broker listening on $port.
run() {
  local tput
  tput="$(java -Xmx512m $log4j -cp "$kafka_cp" org.apache.kafka.tools.ProducerPerformance \
    --topic "txn-perf-$2" --num-records "$records" --record-size 100 --throughput -1 \
    --transactional-id "txn-perf-$1-$2" --transaction-duration-ms 100 \
    --producer-props bootstrap.servers="localhost:$port" 2>/dev/null | tail -n 1 |
    sed -E 's/.*records sent, ([0-9.]+) records\/sec \(([0-9.]+) MB\/sec\).* ([0-9]+) ms 50th, [0-9]+ ms 95th, ([0-9]+) ms 99th.*/records_per_sec=\1 mb_per_sec=\2 p50_ms=\3 p99_ms=\4/')"
  echo "impl=$1 round=$2 throughput records=$records record_size=100 transaction_duration_ms=100 $tput"
  echo "impl=$1 round=$2 read_committed_e2e rate=$latency_rate commit_ms=100 warmup_s=$warmup_seconds $(java \
    -Xmx256m $log4j -cp "$kafka_cp" "$driver" "localhost:$port" "txn-latency-$2" "$latency_records" "$latency_rate" \
    100 100 "$warmup_seconds" 2>/dev/null)"
}

echo "# load: $(uptime)"
for round in $(seq 1 "$rounds"); do
  if [[ " $impls " == *" minibroker "* ]]; then start_minibroker "$round"; run minibroker "$round"; stop_broker; fi
  if [[ " $impls " == *" kafka "* ]]; then start_kafka_single; run kafka-4.3.1 "$round"; stop_broker; fi
done
echo "# load: $(uptime)"
echo "# reproduce: RECORDS=$records ROUNDS=$rounds LATENCY_RECORDS=$latency_records LATENCY_RATE=$latency_rate" \
  "WARMUP_SECONDS=$warmup_seconds benchmarks/transactional-perf.sh"
