#!/usr/bin/env bash
# The data directory of a single Kafka 4.3.1 node (KRaft, broker and controller in one process) beside a single
# minibroker's after the same traffic (src/.../layout/LayoutWorkload.java), SETTLE_S seconds of quiet (default 25:
# past the 5 s checkpoint intervals and a cleaner round) and a clean stop (SIGTERM). Prints the files only one of
# them has (the partitions of __consumer_offsets and __transaction_state folded), the files both have whose sizes
# differ, and kafka-dump-log (DumpLogSegments) on our t3-0 segment, indexes and producer snapshot. The directories
# stay in $work (printed) for a closer look. docs/data-directory.md has what was found.
#   benchmarks/disk-layout.sh   (SKIP_BUILD=1 reuses server/target/minibroker.jar; MINIBROKER_JAR=path runs that jar instead, as the other benchmarks take it)
# Ports: PERF_PORT_BASE (default 29300) for Kafka, +1 its controller, +2 the minibroker.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/.." && pwd)"
base="${PERF_PORT_BASE:-29300}"
work="$(mktemp -d)"
pid=""
cd "$root"
# shellcheck source=perf-lib.sh
source "$here/perf-lib.sh"
KEEP_WORK="${KEEP_WORK:-1}" # the directories are the result
trap minibroker_cleanup EXIT
build_and_resolve
driver="$here/src/main/java/io/minibroker/benchmarks/layout/LayoutWorkload.java"
settle="${SETTLE_S:-25}"

traffic() { # PORT
  java -Xmx256m $log4j -cp "$kafka_cp" "$driver" "localhost:$1"
  sleep "$settle"
}

start_kafka 1 "$base" $((base + 1)) "1@localhost:$((base + 1))" "$(new_kafka_cluster_id)"
pid=$kafka_pid
wait_for_port "$base"
traffic "$base"
kill "$pid"; wait "$pid" 2>/dev/null || true; pid=""

data="$work/minibroker"; port=$((base + 2))
start_one_minibroker "${MINIBROKER_JAR:-server/target/minibroker.jar}" --override group.initial.rebalance.delay.ms=0
wait_for_port "$port"
traffic "$port"
stop_minibroker

fold() { # the internal topics' partitions into one name each
  sed -E 's#^\./(__consumer_offsets|__transaction_state)-[0-9]+/#./\1-N/#'
}
files() { # DIR: its files, folded
  (cd "$1" && find . -type f | fold | sort -u)
}
echo "# only in Kafka's (<) or only in ours (>)"
diff <(files "$work/kafka-1") <(files "$data") | grep '^[<>]' || true
echo "# in both, sizes differ: how many files, file kafka=bytes minibroker=bytes (internal partitions folded)"
(cd "$data" && find . -type f) | sort | while read -r f; do
  [[ -f "$work/kafka-1/$f" ]] || continue
  k=$(stat -c %s "$work/kafka-1/$f"); m=$(stat -c %s "$data/$f")
  [[ "$k" == "$m" ]] || echo "$f kafka=$k minibroker=$m"
done | fold | sort | uniq -c
echo "# kafka-dump-log on ours"
segment="$data/t3-0/00000000000000000000"
java $log4j -cp "$kafka_cp" org.apache.kafka.tools.DumpLogSegments \
  --files "$segment.log,$segment.index,$segment.timeindex,$segment.txnindex,$(ls "$data"/t3-0/*.snapshot | head -n 1)"
echo "# directories kept in $work"
