# Shared by producer-perf.sh and cluster-perf.sh (sourced, not run): builds minibroker, resolves Apache Kafka
# 4.3.1's tools, and runs kafka-producer-perf-test. Expects $root (the repository) and $work (a temporary
# directory) to be set.

build_and_resolve() {
  echo "# building minibroker and resolving Apache Kafka 4.3.1 ..." >&2
  (cd "$root" && mvn -q -B -pl server -am package -DskipTests) >&2
  (cd "$root" && mvn -q -B -f benchmarks/producer-perf/pom.xml dependency:build-classpath \
    -Dmdep.outputFile="$work/kafka.cp") >&2
  kafka_cp="$(cat "$work/kafka.cp")"
  log4j="-Dlog4j2.configurationFile=$root/benchmarks/producer-perf/log4j2.properties"
}

# Waits until something listens on localhost:$1.
wait_for_port() {
  for _ in $(seq 1 120); do
    if (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null; then return 0; fi
    sleep 0.5
  done
  echo "nothing listened on $1" >&2; return 1
}

# perf BOOTSTRAP TOPIC ACKS RECORDS; prints: records_per_sec mb_per_sec p50_ms p99_ms
perf() {
  java -Xmx512m $log4j -cp "$kafka_cp" org.apache.kafka.tools.ProducerPerformance \
    --topic "$2" --num-records "$4" --record-size 100 --throughput -1 \
    --producer-props bootstrap.servers="$1" acks="$3" 2>/dev/null | tail -n 1 |
  sed -E 's/.*records sent, ([0-9.]+) records\/sec \(([0-9.]+) MB\/sec\).* ([0-9]+) ms 50th, [0-9]+ ms 95th, ([0-9]+) ms 99th.*/\1 \2 \3 \4/'
}
