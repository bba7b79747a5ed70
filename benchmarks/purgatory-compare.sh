#!/usr/bin/env bash
# Runs the seed purgatory benchmark on minibroker's purgatory and Kafka 4.4.0's, side by side, and prints the table.
#   benchmarks/purgatory-compare.sh            full run: 1,000,000 requests a run, rates 100k..3.2M req/s
#   benchmarks/purgatory-compare.sh --quick    100,000 requests, four rate steps (100k..800k): checks the harness in about a minute
# Any further arguments go to PurgatoryComparison (--requests N, --rates a,b,c, --cases low,high, --modes force,event).
# Builds what it needs first: the benchmarks module and the modules it depends on, through the parent's reactor.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/.." && pwd)"
cd "$root"
if [[ "${SKIP_BUILD:-0}" != 1 ]]; then
  mvn -q -B package -pl benchmarks -am -DskipTests >&2
fi
# Which purgatory source was measured: the commit, and whether the working tree differed from it.
if rev="$(git -C "$root" log -1 --format=%h -- purgatory 2>/dev/null)" && [[ -n "$rev" ]]; then
  dirty="$(git -C "$root" status --porcelain -- purgatory | head -1)"
  echo "# purgatory source: commit $rev${dirty:+ plus uncommitted changes}"
fi
exec java -Xmx256m -cp "$here/target/benchmarks.jar" io.minibroker.benchmarks.purgatory.PurgatoryComparison "$@"
