# Shared by producer-perf.sh, cluster-perf.sh, broker-perf.sh, segments-start.sh, partition-start.sh and e2e-trace.sh
# (sourced, not run): builds minibroker, resolves Apache Kafka 4.3.1's tools, starts Kafka KRaft nodes, creates topics,
# runs kafka-producer-perf-test, and starts and stops the one minibroker of the start-time scripts and e2e-trace.sh.
# Expects $root (the repository) and $work (a temporary directory) to be set.

build_and_resolve() {
  echo "# building minibroker and resolving Apache Kafka 4.3.1 ..." >&2
  # SKIP_BUILD=1 reuses server/target/minibroker.jar.
  [[ -n "${SKIP_BUILD:-}" ]] || (cd "$root" && mvn -q -B -pl server -am package -DskipTests) >&2
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

# perf BOOTSTRAP TOPIC ACKS RECORDS [RECORD_SIZE, default 100]; prints: records_per_sec mb_per_sec p50_ms p99_ms
perf() {
  java -Xmx512m $log4j -cp "$kafka_cp" org.apache.kafka.tools.ProducerPerformance \
    --topic "$2" --num-records "$4" --record-size "${5:-100}" --throughput -1 \
    --producer-props bootstrap.servers="$1" acks="$3" 2>/dev/null | tail -n 1 |
  sed -E 's/.*records sent, ([0-9.]+) records\/sec \(([0-9.]+) MB\/sec\).* ([0-9]+) ms 50th, [0-9]+ ms 95th, ([0-9]+) ms 99th.*/\1 \2 \3 \4/'
}

# create_topic BOOTSTRAP TOPIC PARTITIONS REPLICATION_FACTOR. Retried: in a cluster the brokers need a heartbeat
# or two to register with the controller before a topic can be placed.
create_topic() {
  for _ in $(seq 1 30); do
    if java $log4j -cp "$kafka_cp" org.apache.kafka.tools.TopicCommand --bootstrap-server "$1" \
         --create --topic "$2" --partitions "$3" --replication-factor "$4" > "$work/create-$2.log" 2>&1; then
      return 0
    fi
    # A slow creation (thousands of partitions) can time the tool out and still finish.
    grep -q 'already exists' "$work/create-$2.log" && return 0
    sleep 1
  done
  cat "$work/create-$2.log" >&2; return 1
}

# start_kafka NODE_ID PORT CONTROLLER_PORT VOTERS CLUSTER_ID: formats and starts one Apache Kafka 4.3.1 KRaft node
# (broker and controller in one process, heap 1 GB, Kafka's default flush policy) in the background, logging to
# $work/kafka-NODE_ID.log; sets kafka_pid. VOTERS is controller.quorum.voters (id@host:port,...); every node of
# a cluster must be given the same CLUSTER_ID (from new_kafka_cluster_id). The log directory starts empty.
start_kafka() {
  local props="$work/kafka-$1.properties" rf
  rm -rf "$work/kafka-$1"
  rf=$(( $(tr ',' '\n' <<< "$4" | wc -l) ))
  cat > "$props" <<PROPS
process.roles=broker,controller
node.id=$1
controller.quorum.voters=$4
listeners=PLAINTEXT://localhost:$2,CONTROLLER://localhost:$3
advertised.listeners=PLAINTEXT://localhost:$2
controller.listener.names=CONTROLLER
listener.security.protocol.map=PLAINTEXT:PLAINTEXT,CONTROLLER:PLAINTEXT
log.dirs=$work/kafka-$1
num.partitions=1
offsets.topic.replication.factor=$rf
transaction.state.log.replication.factor=$rf
transaction.state.log.min.isr=1
group.initial.rebalance.delay.ms=0
PROPS
  java $log4j -cp "$kafka_cp" kafka.tools.StorageTool format -t "$5" -c "$props" > "$work/format-$1.log" 2>&1
  restart_kafka "$1"
}

# restart_kafka NODE_ID: starts a node that start_kafka set up before (and that has stopped since) on the log
# directory it left; sets kafka_pid.
restart_kafka() {
  java -Xmx1g -Xms1g $log4j -cp "$kafka_cp" kafka.Kafka "$work/kafka-$1.properties" >> "$work/kafka-$1.log" 2>&1 &
  kafka_pid=$!
}

new_kafka_cluster_id() {
  java -cp "$kafka_cp" kafka.tools.StorageTool random-uuid 2>/dev/null
}

# The one minibroker of the start-time scripts (segments-start.sh, partition-start.sh) and e2e-trace.sh, from $root:
# they set $data (its log directory), $port (its one PLAINTEXT listener) and pid="" (then the broker started last),
# and trap minibroker_cleanup on EXIT.

# start_one_minibroker JAR [ARGS...]: bin/minibroker on config/server.properties with log.dirs=$data, then ARGS (more
# --override key=value), listening on localhost:$port, in the background, logging to $work/broker.log; sets pid. Runs
# under the command in the array minibroker_wrapper if one is set (segments-start.sh's strace).
start_one_minibroker() { # not start_minibroker: broker-perf.sh and transactional-perf.sh have their own
  local jar=$1; shift
  MINIBROKER_JAR="$jar" ${minibroker_wrapper[@]+"${minibroker_wrapper[@]}"} bin/minibroker config/server.properties \
    --override "log.dirs=$data" "$@" \
    --override "listeners=PLAINTEXT://localhost:$port" --override "advertised.listeners=PLAINTEXT://localhost:$port" \
    > "$work/broker.log" 2>&1 &
  pid=$!
}

# The process id of the broker's JVM: $pid itself, or its java child under a wrapper.
minibroker_jvm() {
  pgrep -P "$pid" java || echo "$pid"
}

# Stops the broker cleanly: SIGTERM to its JVM itself, not to a wrapper.
stop_minibroker() {
  kill "$(minibroker_jvm)"; wait "$pid" 2>/dev/null || true; pid=""
}

# archive_classes JAR: bin/minibroker archives a jar's classes at its first start; done once beforehand, so that no
# timed start includes it.
archive_classes() {
  MINIBROKER_JAR="$1" bin/minibroker --version > /dev/null
}

# Stops the broker started last (a Kafka node's pid too, if the script put it in $pid), and removes $work unless
# KEEP_WORK is set.
minibroker_cleanup() {
  [[ -z "$pid" ]] || { kill "$pid" 2>/dev/null || true; wait "$pid" 2>/dev/null || true; }
  if [[ -n "${KEEP_WORK:-}" ]]; then echo "# kept $work" >&2; else rm -rf "$work"; fi
}
