#!/usr/bin/env bash
# JMH timer microbenchmarks: minibroker HierarchicalTimer vs Kafka SystemTimer, Netty HashedWheelTimer and
# ScheduledThreadPoolExecutor; add+cancel and add+expire, one and two threads.
#   benchmarks/timer-jmh.sh                 the annotated defaults (1 fork, 3 x 1 s warm-up, 5 x 1 s measurement)
#   benchmarks/timer-jmh.sh --quick         a smoke run (-f 1 -wi 2 -i 3 -w 1s -r 1s)
# Any other arguments go straight to JMH (do not combine --quick with -f/-wi/-i/-w/-r), e.g.
#   benchmarks/timer-jmh.sh --quick -p timer=minibroker,kafka addCancel
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/.." && pwd)"
cd "$root"
if [[ "${SKIP_BUILD:-0}" != 1 ]]; then
  mvn -q -B package -pl benchmarks -am -DskipTests >&2
fi
if rev="$(git -C "$root" log -1 --format=%h -- purgatory 2>/dev/null)" && [[ -n "$rev" ]]; then
  dirty="$(git -C "$root" status --porcelain -- purgatory | head -1)"
  echo "# purgatory source: commit $rev${dirty:+ plus uncommitted changes}"
fi
args=()
for a in "$@"; do
  if [[ "$a" == --quick ]]; then
    args+=(-f 1 -wi 2 -i 3 -w 1s -r 1s)
  else
    args+=("$a")
  fi
done
exec java -jar "$here/target/benchmarks.jar" "${args[@]}"
