#!/usr/bin/env bash
# minibroker side by side with Apache Kafka 4.3.1 in one run, with kafka-tools 4.3.1's own load tools (issue 21):
#   benchmarks/broker-perf.sh                         every case, full record counts
#   benchmarks/broker-perf.sh --quick                 small record counts: checks the harness
#   benchmarks/broker-perf.sh --cases produce,e2e     some cases only (produce, produce-rf3, consume, e2e, ceiling, scale)
# Starts both brokers itself: one minibroker (heap 256 MB, its default) and one Kafka KRaft node (heap 1 GB)
# for the one-node cases, then three of each for produce-rf3; both keep their default flush policy (no fsync
# per write) and get the same topics, created before each case. Each case runs on minibroker, then on Kafka,
# before the next case. With "ceiling" (a default case) the one-node produce cases also run against a null broker
# (benchmarks/src/.../ceiling/NullBroker.java), whose figures end their lines. One line per case and metric, see
# benchmarks/README.md.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/.." && pwd)"

quick=0
cases="produce,consume,e2e,ceiling,scale,produce-rf3"
while [[ $# -gt 0 ]]; do
  case "$1" in
    --quick) quick=1; shift ;;
    --cases) cases="$2"; shift 2 ;;
    *) echo "usage: $0 [--quick] [--cases produce,produce-rf3,consume,e2e,ceiling,scale]" >&2; exit 2 ;;
  esac
done
if (( quick )); then small=50000; large=10000; consume_records=20000; e2e_records=500
  connection_counts=(10 100 1000); idle_window=3
else small=1000000; large=200000; consume_records=1000000; e2e_records=10000
  connection_counts=(10 1000 10000); idle_window=10; fi
wanted() { [[ ",$cases," == *",$1,"* ]]; }

# Ports 29190-29199 for minibroker (29199: the null broker), 29290-29299 for Kafka.
work="$(mktemp -d)"
declare -A pids # role -> pid, e.g. minibroker-0, kafka-1

# --- brokers -------------------------------------------------------------------------------------------------

start_minibroker() { # NAME CONFIG [--override ...]; the log directory starts empty
  local name="$1" config="$2"; shift 2
  rm -rf "${work:?}/$name"
  java -Xmx256m -jar server/target/minibroker.jar "$config" --override "log.dirs=$work/$name" \
    --override group.initial.rebalance.delay.ms=0 "$@" > "$work/$name.log" 2>&1 &
  pids["$name"]=$!
}

# Stops every broker at once. A Kafka node that outlives its cluster's quorum can wait for it indefinitely in its
# controlled shutdown, so whatever is still running after 30 s is killed.
stop_all() {
  local pid
  for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; done
  for _ in $(seq 1 30); do
    local alive=0
    for pid in "${pids[@]}"; do kill -0 "$pid" 2>/dev/null && alive=1; done
    (( alive )) || break
    sleep 1
  done
  for pid in "${pids[@]}"; do kill -9 "$pid" 2>/dev/null || true; wait "$pid" 2>/dev/null || true; done
  pids=()
}
cleanup() {
  stop_all
  if [[ -n "${KEEP_WORK:-}" ]]; then echo "# kept $work" >&2; else rm -rf "$work"; fi
}
trap cleanup EXIT

cd "$root"
# shellcheck source=perf-lib.sh
source "$here/perf-lib.sh"
build_and_resolve
if { wanted ceiling || wanted scale; } && [[ -z "${SKIP_BUILD:-}" ]]; then # the null broker and the scale driver
  mvn -q -B -pl benchmarks -am package -DskipTests >&2
fi
ticks="$(getconf CLK_TCK)"

start_one_node_each() {
  echo "# one node each: minibroker on 29190, Kafka 4.3.1 on 29290" >&2
  start_minibroker minibroker-0 config/server.properties \
    --override "listeners=PLAINTEXT://localhost:29190" --override "advertised.listeners=PLAINTEXT://localhost:29190"
  start_kafka 1 29290 29291 "1@localhost:29291" "$(new_kafka_cluster_id)"
  pids[kafka-1]=$kafka_pid
  wait_for_port 29190; wait_for_port 29290
  boot_minibroker=localhost:29190; boot_kafka=localhost:29290
  if wanted ceiling; then
    java -Xmx256m -cp benchmarks/target/benchmarks.jar io.minibroker.benchmarks.ceiling.NullBroker 29199 \
      > "$work/null-broker.log" 2>&1 &
    pids[ceiling-0]=$!
    wait_for_port 29199; boot_ceiling=localhost:29199
  fi
}

start_three_nodes_each() {
  echo "# three nodes each: minibroker on 29192/29194/29196 (controller 29193), Kafka on 29292/29294/29296" >&2
  local voters="0@localhost:29193"
  start_minibroker minibroker-0 config/cluster/node-0.properties --override "controller.quorum.voters=$voters" \
    --override "listeners=PLAINTEXT://localhost:29192,CONTROLLER://localhost:29193" \
    --override "advertised.listeners=PLAINTEXT://localhost:29192"
  for node in 1 2; do
    local port=$(( 29192 + 2 * node ))
    start_minibroker "minibroker-$node" "config/cluster/node-$node.properties" --override "controller.quorum.voters=$voters" \
      --override "listeners=PLAINTEXT://localhost:$port" --override "advertised.listeners=PLAINTEXT://localhost:$port"
  done
  local id; id="$(new_kafka_cluster_id)"
  local kvoters="1@localhost:29293,2@localhost:29295,3@localhost:29297"
  for node in 1 2 3; do
    start_kafka "$node" $(( 29290 + 2 * node )) $(( 29291 + 2 * node )) "$kvoters" "$id"
    pids["kafka-$node"]=$kafka_pid
  done
  for port in 29192 29194 29196 29292 29294 29296; do wait_for_port "$port"; done
  boot_minibroker=localhost:29192,localhost:29194,localhost:29196
  boot_kafka=localhost:29292,localhost:29294,localhost:29296
}

# --- cost accounting: the broker processes' CPU and peak RSS, from /proc ----------------------------------------

cpu_ticks() { # IMPL: summed utime + stime of that implementation's broker processes
  local sum=0 role
  for role in "${!pids[@]}"; do
    [[ "$role" == "$1"-* ]] || continue
    # Fields after the command name (which ends with ')'): utime and stime are the 12th and 13th.
    sum=$(( sum + $(sed -E 's/.*\) //' "/proc/${pids[$role]}/stat" | awk '{print $12 + $13}') ))
  done
  echo "$sum"
}

# rss_mb IMPL FIELD: summed VmHWM (peak resident set since the process started) or VmRSS (now) of that
# implementation's broker processes, in MB
rss_mb() {
  local sum=0 role
  for role in "${!pids[@]}"; do
    [[ "$role" == "$1"-* ]] || continue
    sum=$(( sum + $(awk -v f="$2:" '$1 == f {print $2}' "/proc/${pids[$role]}/status") ))
  done
  awk -v kb="$sum" 'BEGIN { printf "%.1f", kb / 1024 }'
}

# line CASE METRIC UNIT MINIBROKER KAFKA BETTER [CEILING]
line() {
  awk -v c="$1" -v m="$2" -v u="$3" -v mb="$4" -v k="$5" -v b="$6" -v ceil="${7:-}" 'BEGIN {
    r = (k + 0 != 0) ? sprintf("%.2f", mb / k) : "n/a"
    printf "case=%s metric=%s unit=%s minibroker=%s kafka=%s ratio=%s better=%s%s\n", c, m, u, mb, k, r, b,
      (ceil == "" ? "" : " ceiling=" ceil) }'
}

# measure CASE RECORDS FUNCTION [ceiling]: runs "FUNCTION IMPL BOOTSTRAP" on minibroker, then on Kafka (then on
# the null broker, if asked and running); the function prints "metric unit better value" lines. Prints those side
# by side, then the brokers' CPU per million records (the records the case produced plus those it consumed) and
# peak RSS.
measure() {
  local name="$1" records="$2" fn="$3" impl boot before impls=(minibroker kafka)
  [[ "${4:-}" == ceiling && -n "${pids[ceiling-0]:-}" ]] && impls+=(ceiling)
  declare -A out cpu rss
  for impl in "${impls[@]}"; do
    boot="boot_$impl"; before=$(cpu_ticks "$impl")
    out[$impl]="$("$fn" "$impl" "${!boot}")"
    cpu[$impl]=$(awk -v t=$(( $(cpu_ticks "$impl") - before )) -v hz="$ticks" -v n="$records" \
      'BEGIN { printf "%.2f", t / hz / n * 1000000 }')
    rss[$impl]=$(rss_mb "$impl" VmHWM)
  done
  paste -d' ' <(echo "${out[minibroker]}") <(echo "${out[kafka]}") <(echo "${out[ceiling]:-}") |
    while read -r metric unit better mv _ _ _ kv _ _ _ cv; do
      line "$name" "$metric" "$unit" "$mv" "$kv" "$better" "${cv:-}"
    done
  line "$name" broker_cpu_per_m_records s "${cpu[minibroker]}" "${cpu[kafka]}" lower "${cpu[ceiling]:-}"
  line "$name" broker_peak_rss MB "${rss[minibroker]}" "${rss[kafka]}" lower "${rss[ceiling]:-}"
}

# --- cases ---------------------------------------------------------------------------------------------------

# Cases run in subshells, so names are made unique by the clock rather than a counter.
# The null broker answers Metadata for any topic, so nothing is created there.
fresh_topic() { # IMPL BOOTSTRAP PARTITIONS RF -> a new topic's name
  local t; t="bp-$1-$(date +%s%N)"
  [[ "$1" == ceiling ]] || create_topic "$2" "$t" "$3" "$4"
  echo "$t"
}

produce_case() { # IMPL BOOTSTRAP, with $acks $records $size $partitions $rf set
  local t; t=$(fresh_topic "$1" "$2" "$partitions" "$rf")
  perf "$2" "$t" "$acks" "$records" "$size" | awk '{
    print "throughput records/s higher", $1; print "throughput_mb MB/s higher", $2
    print "latency_p50 ms lower", $3; print "latency_p99 ms lower", $4 }'
}

run_produce() { # PREFIX PARTITIONS RF
  partitions="$2"; rf="$3"
  for spec in "100b $small 100" "1kb $large 1024"; do
    read -r label records size <<< "$spec"
    for acks in 1 all; do
      [[ "$1" == produce-rf3 && "$acks" == 1 ]] && continue
      measure "$1-$label-acks$acks" "$records" produce_case ceiling
    done
  done
}

# consumer_perf BOOTSTRAP TOPIC RECORDS: kafka-tools' ConsumerPerformance with a fresh group; prints its CSV line
# (start, end, MB, MB/s, records, records/s, rebalance ms, fetch ms, fetch MB/s, fetch records/s).
consumer_perf() {
  java -Xmx512m $log4j -cp "$kafka_cp" org.apache.kafka.tools.ConsumerPerformance --bootstrap-server "$1" \
    --topic "$2" --num-records "$3" --group "bp-group-$(date +%s%N)" --timeout 120000 --hide-header 2>/dev/null |
    tail -n 1
}

consume_lines() { # the CSV line of consumer_perf -> metric lines
  awk -F', *' '{ print "throughput records/s higher", $6; print "throughput_mb MB/s higher", $4
                 print "fetch_throughput records/s higher", $10 }'
}

# The log is written first (not measured), so the consumer starts cold and the page cache is warm.
consume_log_case() {
  local t; t=$(fresh_topic "$1" "$2" 1 1)
  perf "$2" "$t" 1 "$consume_records" 1024 > /dev/null
  consumer_perf "$2" "$t" "$consume_records" | consume_lines
}

# The consumer starts on an empty topic, then a producer (acks=1, 1 KB, unthrottled) writes; the consumer's rate is
# bounded by the producer's and includes its group join.
consume_tail_case() {
  local t; t=$(fresh_topic "$1" "$2" 1 1)
  consumer_perf "$2" "$t" "$consume_records" > "$work/tail.out" &
  local consumer=$!
  sleep 2 # the consumer joins its group and waits on the empty log before the first record is produced
  perf "$2" "$t" 1 "$consume_records" 1024 > /dev/null
  wait "$consumer"
  consume_lines < "$work/tail.out"
}

# kafka-tools' EndToEndLatency: one 100-byte record at a time, acks=all, each sent when the previous one has been
# consumed (its fixed rate is one in flight). It prints whole milliseconds.
e2e_case() {
  local t; t=$(fresh_topic "$1" "$2" 1 1)
  java -Xmx512m $log4j -cp "$kafka_cp" org.apache.kafka.tools.EndToEndLatency "$2" "$t" "$e2e_records" all 100 \
    2>/dev/null > "$work/e2e.out"
  awk '/Avg latency/ { print "latency_avg ms lower", $3 }
       /Percentiles/ { gsub(",", ""); for (i = 1; i <= NF; i++) if ($i == "=") print "latency_" $(i - 1) " ms lower", $(i + 1) }' \
    "$work/e2e.out" | sed -E 's/latency_([0-9.]+)th/latency_p\1/'
}

# scale_connections N: N connections, each after one ApiVersions round trip, held idle; the broker's CPU over an
# idle window (in % of one core) and its resident set at the end of it.
scale_connections() {
  local n="$1" impl boot before driver
  declare -A cpu rss
  for impl in minibroker kafka; do
    boot="boot_$impl"
    java -Xmx256m -cp benchmarks/target/benchmarks.jar io.minibroker.benchmarks.scale.IdleConnections \
      "${!boot%%:*}" "${!boot##*:}" "$n" $(( idle_window + 3 )) > "$work/idle.out" 2>&1 &
    driver=$!
    until grep -q ready "$work/idle.out"; do
      kill -0 "$driver" 2>/dev/null || { cat "$work/idle.out" >&2; return 1; }
      sleep 0.2
    done
    sleep 1 # the last answers are flushed and the broker settles
    before=$(cpu_ticks "$impl")
    sleep "$idle_window"
    cpu[$impl]=$(awk -v t=$(( $(cpu_ticks "$impl") - before )) -v hz="$ticks" -v w="$idle_window" \
      'BEGIN { printf "%.2f", t / hz / w * 100 }')
    rss[$impl]=$(rss_mb "$impl" VmRSS)
    wait "$driver"
  done
  line "scale-connections-$n" idle_cpu %core "${cpu[minibroker]}" "${cpu[kafka]}" lower
  line "scale-connections-$n" rss MB "${rss[minibroker]}" "${rss[kafka]}" lower
}

if wanted produce || wanted consume || wanted e2e || wanted scale; then
  start_one_node_each
  wanted produce && run_produce produce 1 1
  # The consume cases' records are produced and consumed: CPU is counted over both.
  wanted consume && measure consume-log-1kb $(( 2 * consume_records )) consume_log_case
  wanted consume && measure consume-tail-1kb $(( 2 * consume_records )) consume_tail_case
  wanted e2e && measure e2e-acksall-100b $(( 2 * e2e_records )) e2e_case
  if wanted scale; then for n in "${connection_counts[@]}"; do scale_connections "$n"; done; fi
  stop_all
fi
if wanted produce-rf3; then
  start_three_nodes_each
  run_produce produce-rf3 3 3
  stop_all
fi
echo "# records: small=$small large=$large consume=$consume_records e2e=$e2e_records; $(uptime)"
