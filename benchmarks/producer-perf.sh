#!/usr/bin/env bash
# kafka-producer-perf-test (ProducerPerformance from kafka-tools 4.3.1) against minibroker, then against a real
# Apache Kafka 4.3.1 single-node KRaft broker, one after the other on this machine, with acks=1 and acks=all:
#   benchmarks/producer-perf.sh                 1,000,000 records of 100 bytes per run
#   RECORDS=200000 benchmarks/producer-perf.sh  a shorter run
# Heaps: minibroker 256 MB, Kafka 1 GB. Each broker gets a fresh log directory and a fresh topic per run.
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
  for acks in 1 all; do
    result["$impl,$acks"]="$(perf "localhost:$port" "perf-$impl-acks-$acks" "$acks" "$records")"
    echo "impl=$impl acks=$acks records=$records ${result["$impl,$acks"]}" | \
      awk '{printf "%s %s %s records_per_sec=%s mb_per_sec=%s p50_ms=%s p99_ms=%s\n", $1, $2, $3, $4, $5, $6, $7}'
  done
}

echo "# minibroker (heap 256 MB)" >&2
java -Xmx256m -jar server/target/minibroker.jar config/server.properties \
  --override "listeners=PLAINTEXT://localhost:$port" --override "advertised.listeners=PLAINTEXT://localhost:$port" \
  --override "log.dirs=$work/minibroker" > "$work/minibroker.log" 2>&1 &
broker_pid=$!
wait_for_port "$port"
run_all minibroker
stop_broker

echo "# Apache Kafka 4.3.1, KRaft single node (heap 1 GB)" >&2
cat > "$work/kafka.properties" <<PROPS
process.roles=broker,controller
node.id=1
controller.quorum.voters=1@localhost:$controller_port
listeners=PLAINTEXT://localhost:$port,CONTROLLER://localhost:$controller_port
advertised.listeners=PLAINTEXT://localhost:$port
controller.listener.names=CONTROLLER
listener.security.protocol.map=PLAINTEXT:PLAINTEXT,CONTROLLER:PLAINTEXT
log.dirs=$work/kafka
num.partitions=1
offsets.topic.replication.factor=1
transaction.state.log.replication.factor=1
transaction.state.log.min.isr=1
group.initial.rebalance.delay.ms=0
PROPS
java $log4j -cp "$kafka_cp" kafka.tools.StorageTool format -t "$(java -cp "$kafka_cp" kafka.tools.StorageTool random-uuid 2>/dev/null)" \
  -c "$work/kafka.properties" > "$work/format.log" 2>&1
java -Xmx1g -Xms1g $log4j -cp "$kafka_cp" kafka.Kafka "$work/kafka.properties" > "$work/kafka.log" 2>&1 &
broker_pid=$!
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
echo "# reproduce: RECORDS=$records benchmarks/producer-perf.sh"
