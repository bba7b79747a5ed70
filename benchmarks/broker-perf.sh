#!/usr/bin/env bash
# minibroker side by side with Apache Kafka 4.3.1 in one run, with kafka-tools 4.3.1's own load tools (issue 21):
#   benchmarks/broker-perf.sh                         every case, full record counts
#   benchmarks/broker-perf.sh --quick                 small record counts: checks the harness
#   benchmarks/broker-perf.sh --cases produce,e2e     some cases only (produce, produce-rf3, consume, e2e, ceiling,
#                                                     e2e = e2e-pingpong, e2e-rate;
#                                                     scale = scale-connections, scale-fetches, scale-partitions)
#   E2E_RATE=2000 benchmarks/broker-perf.sh --cases e2e-rate   the fixed-rate e2e case at another rate (default 1000/s)
#   benchmarks/broker-perf.sh --warm                  each produce, consume and e2e case runs once untimed on each
#                                                     broker before its timed pass: warm brokers, as long-running
#                                                     ones are (default: cold, the first pass is the timed one)
#   PERF_PORT_BASE=19300 benchmarks/broker-perf.sh    other ports (default 29190; uses base..base+9, base+100..+109)
#   KAFKA_HEAP_OPTS=-Xmx256m KAFKA_JVM_PERFORMANCE_OPTS=-XX:+UseG1GC benchmarks/broker-perf.sh
#                                                     minibroker and the null broker with other JVM options, as bin/minibroker takes
#                                                     them (MINIBROKER_JAR=path: another build of it)
# Starts both brokers itself: one minibroker through bin/minibroker (its default JVM options, config/jvm-*.options:
# heap 32 to 256 MB, serial collector) and one Kafka KRaft node (heap 1 GB)
# for the one-node cases, then three of each for produce-rf3; both keep their default flush policy (no fsync
# per write) and get the same topics, created before each case. Each case runs on minibroker, then on Kafka,
# before the next case. With "ceiling" (a default case) the one-node produce and e2e cases also run against a null broker
# (benchmarks/src/.../ceiling/NullBroker.java), whose figures end their lines. One line per case and metric, see
# benchmarks/README.md.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/.." && pwd)"

quick=0
warm=0
cases="produce,consume,e2e,ceiling,scale,produce-rf3"
while [[ $# -gt 0 ]]; do
  case "$1" in
    --quick) quick=1; shift ;;
    --warm) warm=1; shift ;;
    --cases) cases="$2"; shift 2 ;;
    *) echo "usage: $0 [--quick] [--warm] [--cases produce,produce-rf3,consume,e2e,e2e-pingpong,e2e-rate,ceiling,scale,scale-connections,scale-fetches,scale-partitions]" >&2
       exit 2 ;;
  esac
done
if (( quick )); then small=50000; large=10000; consume_records=20000; e2e_records=500; e2e_warmup_s=2; e2e_s=5
  connection_counts=(10 100 1000); fetch_counts=(10 1000 10000); idle_window=3
  partition_counts=(1 1000); partition_records=100000; metadata_requests=500
else small=1000000; large=200000; consume_records=1000000; e2e_records=10000; e2e_warmup_s=5; e2e_s=30
  connection_counts=(10 1000 10000); fetch_counts=(10 1000 10000); idle_window=10
  partition_counts=(1 100 1000 10000); partition_records=1000000; metadata_requests=2000; fi
# PARTITION_COUNTS="1000 10000" (and FETCH_COUNTS, CONNECTION_COUNTS) replace a scale case's counts.
[[ -n "${PARTITION_COUNTS:-}" ]] && read -r -a partition_counts <<< "$PARTITION_COUNTS"
[[ -n "${FETCH_COUNTS:-}" ]] && read -r -a fetch_counts <<< "$FETCH_COUNTS"
[[ -n "${CONNECTION_COUNTS:-}" ]] && read -r -a connection_counts <<< "$CONNECTION_COUNTS"
wanted() { [[ ",$cases," == *",$1,"* ]]; }
wanted_scale() { wanted scale || wanted "scale-$1"; } # "scale" is all three scale cases
wanted_e2e() { wanted e2e || wanted "e2e-$1"; } # "e2e" is both e2e cases
e2e_rate="${E2E_RATE:-1000}"

# Ports: PERF_PORT_BASE (default 29190) to +9 for minibroker (+9: the null broker), +100 to +109 for Kafka.
base="${PERF_PORT_BASE:-29190}"
work="$(mktemp -d)"
declare -A pids # role -> pid, e.g. minibroker-0, kafka-1

# --- brokers -------------------------------------------------------------------------------------------------

start_minibroker() { # NAME CONFIG [--keep-log] [--override ...]; the log directory starts empty unless kept
  local name="$1" config="$2"; shift 2
  if [[ "${1:-}" == --keep-log ]]; then shift; else rm -rf "${work:?}/$name"; fi
  MINIBROKER_JAR="${MINIBROKER_JAR:-server/target/minibroker.jar}" bin/minibroker "$config" --override "log.dirs=$work/$name" \
    --override group.initial.rebalance.delay.ms=0 "$@" >> "$work/$name.log" 2>&1 &
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
if { wanted ceiling || wanted_e2e rate || wanted_scale connections || wanted_scale fetches || wanted_scale partitions; } && [[ -z "${SKIP_BUILD:-}" ]]; then # the null broker and the scale driver
  mvn -q -B -pl benchmarks -am package -DskipTests >&2
fi
ticks="$(getconf CLK_TCK)"

start_one_node_each() {
  echo "# one node each: minibroker on $base, Kafka 4.3.1 on $((base + 100))" >&2
  start_minibroker minibroker-0 config/server.properties \
    --override "listeners=PLAINTEXT://localhost:$base" --override "advertised.listeners=PLAINTEXT://localhost:$base"
  start_kafka 1 $((base + 100)) $((base + 101)) "1@localhost:$((base + 101))" "$(new_kafka_cluster_id)"
  pids[kafka-1]=$kafka_pid
  wait_for_port $base; wait_for_port $((base + 100))
  boot_minibroker=localhost:$base; boot_kafka=localhost:$((base + 100))
  if wanted ceiling; then
    # With minibroker's heap and collector, as bin/minibroker picks them, so that their throughput differs only in their
    # code (minibroker alone also starts with its class-data-sharing archive, which changes its start, not its speed).
    # shellcheck disable=SC2086
    java ${KAFKA_HEAP_OPTS:-@config/jvm-heap.options} ${KAFKA_JVM_PERFORMANCE_OPTS:-@config/jvm-performance.options} \
      -cp benchmarks/target/benchmarks.jar io.minibroker.benchmarks.ceiling.NullBroker $((base + 9)) \
      > "$work/null-broker.log" 2>&1 &
    pids[ceiling-0]=$!
    wait_for_port $((base + 9)); boot_ceiling=localhost:$((base + 9))
  fi
}

start_three_nodes_each() {
  echo "# three nodes each: minibroker on $((base + 2))/$((base + 4))/$((base + 6)) (controller $((base + 3))), Kafka on $((base + 102))/$((base + 104))/$((base + 106))" >&2
  local voters="0@localhost:$((base + 3))"
  start_minibroker minibroker-0 config/cluster/node-0.properties --override "controller.quorum.voters=$voters" \
    --override "listeners=PLAINTEXT://localhost:$((base + 2)),CONTROLLER://localhost:$((base + 3))" \
    --override "advertised.listeners=PLAINTEXT://localhost:$((base + 2))"
  for node in 1 2; do
    local port=$(( base + 2 + 2 * node ))
    start_minibroker "minibroker-$node" "config/cluster/node-$node.properties" --override "controller.quorum.voters=$voters" \
      --override "listeners=PLAINTEXT://localhost:$port" --override "advertised.listeners=PLAINTEXT://localhost:$port"
  done
  local id; id="$(new_kafka_cluster_id)"
  local kvoters="1@localhost:$((base + 103)),2@localhost:$((base + 105)),3@localhost:$((base + 107))"
  for node in 1 2 3; do
    start_kafka "$node" $(( base + 102 + 2 * node - 2 )) $(( base + 103 + 2 * node - 2 )) "$kvoters" "$id"
    pids["kafka-$node"]=$kafka_pid
  done
  for port in 2 4 6 102 104 106; do wait_for_port $(( base + port )); done
  boot_minibroker=localhost:$((base + 2)),localhost:$((base + 4)),localhost:$((base + 6))
  boot_kafka=localhost:$((base + 102)),localhost:$((base + 104)),localhost:$((base + 106))
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
# peak RSS. With --warm, each broker first runs the case once untimed (its output dropped), so that the timed pass
# finds the JIT's code compiled and the pools grown, as in a broker that has been serving for a while.
measure() {
  local name="$1" records="$2" fn="$3" impl boot before impls=(minibroker kafka)
  [[ "${4:-}" == ceiling && -n "${pids[ceiling-0]:-}" ]] && impls+=(ceiling)
  declare -A out cpu rss
  for impl in "${impls[@]}"; do
    boot="boot_$impl"
    if (( warm )); then "$fn" "$impl" "${!boot}" > /dev/null; fi
    before=$(cpu_ticks "$impl")
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

# Ours (benchmarks/src/.../e2e/FixedRateLatency.java): $e2e_rate records/s of 100 bytes, acks=all, linger.ms=0, on a
# fixed schedule, to a consumer assigned partition 0 at its end (fetch.min.bytes 1, default fetch.max.wait.ms), for
# $e2e_warmup_s s (dropped) then $e2e_s s; latencies in microseconds from each record's due time (late sends are not
# skipped, coordinated omission is not left out) and, as send_latency, from its actual send() call.
e2e_rate_case() {
  local t; t=$(fresh_topic "$1" "$2" 1 1)
  java -Xmx512m -cp benchmarks/target/benchmarks.jar io.minibroker.benchmarks.e2e.FixedRateLatency "$2" "$t" \
    --rate "$e2e_rate" --warmup-seconds "$e2e_warmup_s" --seconds "$e2e_s" 2>/dev/null | grep '^records=' > "$work/e2e-rate.out"
  tr ' ' '\n' < "$work/e2e-rate.out" | awk -F= '
    $1 == "records" { print "samples records higher", $2 }
    $1 == "missing" { print "missing records lower", $2 }
    $1 ~ /_us$/ { m = $1; sub(/_us$/, "", m); sub(/^p/, "latency_p", m); sub(/^max/, "latency_max", m)
                  sub(/^send_p/, "send_latency_p", m); sub(/^send_max/, "send_latency_max", m); sub(/p999/, "p99.9", m)
                  print m "_us us lower", $2 }'
}

# --- scale: how cost grows with partitions, connections and parked fetches ----------------------------------

scale_driver() { # CLASS ARGS...: one of benchmarks/src/.../scale
  local class="$1"; shift
  java -Xmx512m -cp benchmarks/target/benchmarks.jar "io.minibroker.benchmarks.scale.$class" "$@"
}

# idle_cpu IMPL OUT DRIVER_PID: waits until the driver (writing to OUT) prints "ready", lets the broker settle for
# a second, then prints the broker's CPU over $idle_window seconds in % of one core. The driver must hold its load
# for at least idle_window + 1 seconds after "ready".
idle_cpu() {
  local before
  until grep -q ready "$2"; do
    kill -0 "$3" 2>/dev/null || { cat "$2" >&2; return 1; }
    sleep 0.2
  done
  sleep 1 # the last answers are flushed and the broker settles
  before=$(cpu_ticks "$1")
  sleep "$idle_window"
  awk -v t=$(( $(cpu_ticks "$1") - before )) -v hz="$ticks" -v w="$idle_window" 'BEGIN { printf "%.2f", t / hz / w * 100 }'
}

# scale_connections N: N connections, each after one ApiVersions round trip, held idle; the broker's CPU over an
# idle window (in % of one core) and its resident set at the end of it.
scale_connections() {
  local n="$1" impl boot driver
  declare -A cpu rss
  for impl in minibroker kafka; do
    boot="boot_$impl"
    scale_driver IdleConnections "${!boot%%:*}" "${!boot##*:}" "$n" $(( idle_window + 3 )) > "$work/idle.out" 2>&1 &
    driver=$!
    cpu[$impl]=$(idle_cpu "$impl" "$work/idle.out" "$driver")
    rss[$impl]=$(rss_mb "$impl" VmRSS)
    wait "$driver"
  done
  line "scale-connections-$n" idle_cpu %core "${cpu[minibroker]}" "${cpu[kafka]}" lower
  line "scale-connections-$n" rss MB "${rss[minibroker]}" "${rss[kafka]}" lower
}

# scale_fetches N: N connections each park one long-poll Fetch (min bytes 1) at the log end of a fresh one-partition
# topic; the broker's CPU over an idle window and its resident set, then the time from one produced record to the
# last of the N fetch answers.
scale_fetches() {
  local n="$1" impl boot driver t
  declare -A cpu rss done_ms
  for impl in minibroker kafka; do
    boot="boot_$impl"; t=$(fresh_topic "$impl" "${!boot}" 1 1)
    scale_driver ParkedFetches "${!boot%%:*}" "${!boot##*:}" "$t" "$n" $(( idle_window + 2 )) > "$work/parked.out" 2>&1 &
    driver=$!
    cpu[$impl]=$(idle_cpu "$impl" "$work/parked.out" "$driver")
    rss[$impl]=$(rss_mb "$impl" VmRSS)
    wait "$driver"
    grep -q "early=0 answered=$n" "$work/parked.out" || echo "# $impl parked fetches: $(tail -n 1 "$work/parked.out")" >&2
    done_ms[$impl]=$(sed -nE 's/.*complete_ms=([0-9.]+).*/\1/p' "$work/parked.out")
  done
  line "scale-fetches-$n" idle_cpu %core "${cpu[minibroker]}" "${cpu[kafka]}" lower
  line "scale-fetches-$n" rss MB "${rss[minibroker]}" "${rss[kafka]}" lower
  line "scale-fetches-$n" complete_all ms "${done_ms[minibroker]}" "${done_ms[kafka]}" lower
}

# create_partitions BOOTSTRAP TOPIC N: a topic of N partitions, in steps of at most 5,000, since Kafka's controller
# refuses an operation of more than 10,000 records (a topic of 10,000 partitions is 10,001).
create_partitions() {
  local step=5000 have
  have=$(( $3 < step ? $3 : step ))
  create_topic "$1" "$2" "$have" 1
  while (( have < $3 )); do
    have=$(( have + step < $3 ? have + step : $3 ))
    java $log4j -cp "$kafka_cp" org.apache.kafka.tools.TopicCommand --bootstrap-server "$1" --alter --topic "$2" \
      --partitions "$have" > "$work/alter-$2.log" 2>&1 || { cat "$work/alter-$2.log" >&2; return 1; }
  done
}

# scale_partitions N: fresh one-node brokers get one topic of N partitions and are stopped; then each is started
# again alone on its log, and measured: the time from its launch until Metadata shows a leader for every partition,
# its resident set then, the Metadata latency for that topic and the throughput of kafka-producer-perf-test spreading
# $partition_records 100-byte records over the partitions.
scale_partitions() {
  local n="$1" impl boot t="scale-p$1" launch meta
  declare -A start_ms rss p50 p99 tput
  stop_all
  start_one_node_each
  create_partitions "$boot_minibroker" "$t" "$n"
  create_partitions "$boot_kafka" "$t" "$n"
  stop_all
  for impl in minibroker kafka; do
    launch=$(date +%s%3N)
    if [[ "$impl" == minibroker ]]; then
      start_minibroker minibroker-0 config/server.properties --keep-log \
        --override "listeners=PLAINTEXT://localhost:$base" --override "advertised.listeners=PLAINTEXT://localhost:$base"
    else
      restart_kafka 1; pids[kafka-1]=$kafka_pid
    fi
    boot="boot_$impl"
    start_ms[$impl]=$(scale_driver PartitionScale ready "${!boot%%:*}" "${!boot##*:}" "$t" "$n" "$launch")
    rss[$impl]=$(rss_mb "$impl" VmRSS)
    read -r meta < <(scale_driver PartitionScale metadata "${!boot%%:*}" "${!boot##*:}" "$t" "$metadata_requests")
    read -r p50[$impl] p99[$impl] <<< "$meta"
    tput[$impl]=$(perf "${!boot}" "$t" 1 "$partition_records" 100 | awk '{ print $1 }')
  done
  line "scale-partitions-$n" start_time ms "${start_ms[minibroker]}" "${start_ms[kafka]}" lower
  line "scale-partitions-$n" rss_after_start MB "${rss[minibroker]}" "${rss[kafka]}" lower
  line "scale-partitions-$n" metadata_p50 ms "${p50[minibroker]}" "${p50[kafka]}" lower
  line "scale-partitions-$n" metadata_p99 ms "${p99[minibroker]}" "${p99[kafka]}" lower
  line "scale-partitions-$n" produce_throughput records/s "${tput[minibroker]}" "${tput[kafka]}" higher
}

if wanted produce || wanted consume || wanted_e2e pingpong || wanted_e2e rate || wanted_scale connections || wanted_scale fetches ||
   wanted_scale partitions; then
  start_one_node_each
  wanted produce && run_produce produce 1 1
  # The consume cases' records are produced and consumed: CPU is counted over both.
  wanted consume && measure consume-log-1kb $(( 2 * consume_records )) consume_log_case
  wanted consume && measure consume-tail-1kb $(( 2 * consume_records )) consume_tail_case
  wanted_e2e pingpong && measure e2e-acksall-100b $(( 2 * e2e_records )) e2e_case ceiling
  wanted_e2e rate && measure e2e-rate-acksall-100b $(( 2 * e2e_rate * (e2e_warmup_s + e2e_s) )) e2e_rate_case ceiling
  if wanted_scale connections; then for n in "${connection_counts[@]}"; do scale_connections "$n"; done; fi
  if wanted_scale fetches; then for n in "${fetch_counts[@]}"; do scale_fetches "$n"; done; fi
  # Last of the one-node cases: each partition count restarts both brokers on a fresh log.
  if wanted_scale partitions; then for n in "${partition_counts[@]}"; do scale_partitions "$n"; done; fi
  stop_all
fi
if wanted produce-rf3; then
  start_three_nodes_each
  run_produce produce-rf3 3 3
  stop_all
fi
echo "# records: small=$small large=$large consume=$consume_records e2e=$e2e_records; $(uptime)"
