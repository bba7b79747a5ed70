package io.minibroker.it;

import com.fasterxml.jackson.databind.JsonNode;
import io.minibroker.broker.control.ErrorRule;
import io.minibroker.broker.control.RequestMatch;
import io.minibroker.broker.embedded.EmbeddedBroker;
import io.minibroker.broker.embedded.MiniCluster;
import io.minibroker.protocol.error.Errors;
import io.minibroker.protocol.message.ApiKey;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.tools.TransactionalMessageCopier;
import org.apache.kafka.tools.VerifiableConsumer;
import org.apache.kafka.tools.VerifiableProducer;
import org.apache.kafka.tools.VerifiableShareConsumer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.stream.IntStream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The four clients Apache Kafka's system tests judge a broker with (kafka-tools 4.3.1, each in a child JVM printing
 * one JSON line per event), run as tests/kafkatest runs them and checked as it checks them: VerifiableProducer's
 * acknowledged records each consumed once, on one node and across a leader's bounce in a three-node cluster
 * (produce_consume_validate); VerifiableConsumer's group, both protocols, through its members' bounces
 * (consumer_test.py's test_consumer_bounce); TransactionalMessageCopier's exactly-once copy through a clean and a hard
 * bounce of a copier (transactions_test.py, bounce_target "clients"); VerifiableShareConsumer's share group
 * acknowledging every record once (share_consumer_test.py's test_share_multiple_partitions). Record counts are small
 * and the groups' heartbeats short, so that each test takes seconds, not the system tests' minutes.
 */
@Timeout(value = 150, unit = TimeUnit.SECONDS)
class SystemTestToolsTest {

    private static final int RECORDS = 1500;
    private static final Duration GROUP_WAIT = Duration.ofSeconds(60);
    /**
     * The broker settings of the single-node tests: no initial rebalance delay (the system tests' brokers have 3 s,
     * and wait for it), heartbeats of 1 s for the consumer and share groups (5 s by default), so a member that joins
     * or leaves is reconciled within seconds; a timed-out transaction aborted within a second of its timeout.
     */
    private static final Map<String, String> BROKER = Map.of(
            "group.initial.rebalance.delay.ms", "0",
            "group.consumer.min.heartbeat.interval.ms", "1000",
            "group.consumer.heartbeat.interval.ms", "1000",
            "group.share.min.heartbeat.interval.ms", "1000",
            "group.share.heartbeat.interval.ms", "1000",
            "transaction.abort.timed.out.transaction.cleanup.interval.ms", "1000");

    @Test
    void producerAckedRecordsAreConsumedOnce() throws Exception {
        try (EmbeddedBroker broker = EmbeddedBroker.start(BROKER)) {
            String bootstrap = broker.bootstrapServers();
            createTopic(bootstrap, new NewTopic("verified", 3, (short) 1));
            try (VerifiableTool producer = producer(bootstrap, "verified", RECORDS, -1)) {
                producer.awaitExit();
                assertConsumedOnce(bootstrap, "verified", 3, producer);
            }
        }
    }

    /**
     * As produce_consume_validate's tests with a bounced broker: the partition's leader stopped mid-stream and
     * started again; the idempotent producer retries through the change of leader, and what it saw acknowledged is
     * there once, at the offsets it was told.
     */
    @Test
    void producerAckedRecordsAreConsumedOnceAcrossALeaderBounce() throws Exception {
        try (MiniCluster cluster = MiniCluster.start(3, BROKER)) {
            String bootstrap = cluster.bootstrapServers();
            createTopic(bootstrap, new NewTopic("bounced", 1, (short) 3)
                    .configs(Map.of("min.insync.replicas", "2")));
            try (VerifiableTool producer = producer(bootstrap, "bounced", RECORDS, 500)) {
                Eventually.await(() -> producer.named("producer_send_success").size() >= RECORDS / 4,
                        () -> "a quarter acknowledged: " + producer.describe());
                // the bounced leader is a broker, not the cluster's one controller (as the system tests' isolated
                // KRaft controllers, which they never bounce)
                int leader = MiniCluster.CONTROLLER_ID + 1;
                // From its move on, it answers the stream's produce requests NOT_ENOUGH_REPLICAS, which the producer
                // retries: the stream waits at the leader for the stop, so the stop lands mid-stream (at 500 records
                // a second, the stream could end before a loaded machine has moved and stopped the leader), and the
                // refused records reach the new leader as retries.
                RequestMatch produces = RequestMatch.api(ApiKey.PRODUCE).topic("bounced");
                cluster.controls(leader).requestLog().start();
                cluster.controls(leader).inject(ErrorRule.answer(produces, Errors.NOT_ENOUGH_REPLICAS).always());
                cluster.moveLeader("bounced", 0, leader);
                assertThat(cluster.controls(leader).requestLog().awaitAnswer(produces, Errors.NOT_ENOUGH_REPLICAS,
                        Duration.ofSeconds(30))).as("the stream held at the leader: " + producer.describe())
                        .isPresent();
                cluster.stop(leader);
                Eventually.await(() -> cluster.leaderOf("bounced", 0) != leader, "a new leader");
                int ackedWhileDown = producer.named("producer_send_success").size();
                Eventually.await(() -> producer.named("producer_send_success").size() > ackedWhileDown,
                        () -> "acknowledgements from the new leader: " + producer.describe());
                cluster.restart(leader);
                producer.awaitExit();
                assertConsumedOnce(cluster.bootstrapServers(), "bounced", 1, producer);
            }
        }
    }

    /**
     * consumer_test.py's test_consumer_bounce (rolling, clean): three members of a group over three partitions while
     * a producer writes; two members in turn stopped and replaced, each change awaited until the partitions are
     * spread over the three members again. Checked as its VerifiableConsumer service does: no commit moves a
     * partition's offset back, no offset is consumed by two members, none is skipped, and after the clean stops what
     * was consumed is exactly what was committed, every acknowledged record.
     */
    @ParameterizedTest
    @ValueSource(strings = {"classic", "consumer"})
    void consumerGroupThroughMemberBounces(String groupProtocol) throws Exception {
        try (EmbeddedBroker broker = EmbeddedBroker.start(BROKER)) {
            String bootstrap = broker.bootstrapServers();
            String topic = "bounce-" + groupProtocol;
            createTopic(bootstrap, new NewTopic(topic, 3, (short) 1));
            List<VerifiableTool> all = new ArrayList<>();
            try (VerifiableTool producer = producer(bootstrap, topic, RECORDS, 200)) {
                List<VerifiableTool> members = new ArrayList<>();
                for (int i = 0; i < 3; i++) {
                    members.add(groupMember(bootstrap, topic, groupProtocol, all));
                }
                awaitSpread(members, 3);
                for (int bounced = 1; bounced < 3; bounced++) {
                    stopCleanly(members.get(bounced));
                    members.set(bounced, groupMember(bootstrap, topic, groupProtocol, all));
                    awaitSpread(members, 3);
                }
                producer.awaitExit();
                int acked = producer.named("producer_send_success").size();
                assertThat(acked).isEqualTo(RECORDS);
                Eventually.await(GROUP_WAIT, () -> committed(all).values().stream().mapToLong(Long::longValue)
                        .sum() == acked, () -> "commits of all " + acked + " records: " + committed(all));
                for (VerifiableTool member : members) {
                    stopCleanly(member);
                }
                assertCommitsNeverGoBack(all);
                assertEachOffsetConsumedOnce(all, committed(all));
            } finally {
                for (VerifiableTool member : all) {
                    member.close();
                }
            }
        }
    }

    /**
     * transactions_test.py with bounce_target "clients": one copier per input partition, each bounced (clean: SIGTERM,
     * hard: SIGKILL, mid-transaction) once past a fifth of its partition and started again with the same
     * transactional id; read_committed, the output holds each input record exactly once. The transaction timeout is
     * the system test's reasoning scaled down: a killed copier's open transaction holds its successor's committed
     * offsets (UNSTABLE_OFFSET_COMMIT) until the coordinator aborts it at its timeout.
     */
    @ParameterizedTest
    @ValueSource(booleans = {false, true})
    void transactionalCopyIsExactlyOnceThroughACopierBounce(boolean hard) throws Exception {
        try (EmbeddedBroker broker = EmbeddedBroker.start(BROKER)) {
            String bootstrap = broker.bootstrapServers();
            createTopic(bootstrap, new NewTopic("input", 2, (short) 1));
            createTopic(bootstrap, new NewTopic("output", 3, (short) 1));
            List<String> input = seedEvenly(bootstrap, "input", 2);
            broker.controls().requestLog().start();
            List<VerifiableTool> copiers = new ArrayList<>();
            try {
                // one partition at a time: a copier started beside a bounce could finish its partition unbounced
                for (int partition = 0; partition < 2; partition++) {
                    VerifiableTool copier = copier(bootstrap, partition);
                    copiers.add(copier);
                    Eventually.await(() -> progress(copier) >= 0.2, () -> "a fifth copied: " + copier.describe());
                    bounce(broker, partition, copier, hard);
                    copiers.set(partition, copier(bootstrap, partition));
                }
                for (VerifiableTool copier : copiers) {
                    copier.awaitExit();
                    assertThat(copier.last().path("remaining").asLong()).as(copier.describe()).isZero();
                }
            } finally {
                for (VerifiableTool copier : copiers) {
                    copier.close();
                }
            }
            List<String> output = Clients.readAllValues(bootstrap,
                    Map.of(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed"), partitions("output", 3));
            assertThat(output).doesNotHaveDuplicates().containsExactlyInAnyOrderElementsOf(input);
        }
    }

    /**
     * Stops or kills a copier while it is provably mid-partition: its commits are answered CONCURRENT_TRANSACTIONS
     * (which its producer retries) until it has been signalled, so it cannot copy its last records and exit 0 by
     * itself between the test's look at its progress and the signal. The hold is lifted before the copier's exit is
     * awaited (a clean stop's close waits for the commit) and before its successor, of the same client id, starts.
     */
    private static void bounce(EmbeddedBroker broker, int partition, VerifiableTool copier, boolean hard)
            throws Exception {
        // a transactional producer's default client id: "producer-" and its transactional id
        RequestMatch commits = RequestMatch.api(ApiKey.END_TXN).clientId("producer-copier-" + partition);
        long hold = broker.controls().inject(ErrorRule.answer(commits, Errors.CONCURRENT_TRANSACTIONS).always());
        try {
            assertThat(broker.controls().requestLog().awaitAnswer(commits, Errors.CONCURRENT_TRANSACTIONS,
                    Duration.ofSeconds(30))).as("a commit held mid-partition: " + copier.describe()).isPresent();
            if (hard) {
                copier.signalKill();
            } else {
                copier.signalStop();
            }
        } finally {
            broker.controls().removeErrorRule(hold);
        }
        copier.awaitExit(hard ? VerifiableTool.KILLED : VerifiableTool.STOPPED);
    }

    /**
     * share_consumer_test.py's test_share_multiple_partitions: three share consumers of one group over three
     * partitions, the group's share.auto.offset.reset set to earliest by the tool (as the test's service asks);
     * every acknowledged record is acknowledged (accepted) exactly once, and no acknowledgement fails.
     */
    @Test
    void shareConsumersAcknowledgeEveryRecordOnce() throws Exception {
        try (EmbeddedBroker broker = EmbeddedBroker.start(BROKER)) {
            String bootstrap = broker.bootstrapServers();
            createTopic(bootstrap, new NewTopic("shared", 3, (short) 1));
            Set<String> acked = new HashSet<>();
            try (VerifiableTool producer = producer(bootstrap, "shared", RECORDS, -1)) {
                producer.awaitExit();
                producer.named("producer_send_success").forEach(event -> acked.add(offsetOf(event)));
            }
            List<VerifiableTool> consumers = new ArrayList<>();
            try {
                for (int i = 0; i < 3; i++) {
                    consumers.add(VerifiableTool.start(VerifiableShareConsumer.class, "--bootstrap-server",
                            bootstrap, "--topic", "shared", "--group-id", "share-group",
                            "--offset-reset-strategy", "earliest"));
                }
                Eventually.await(GROUP_WAIT, () -> acknowledged(consumers).size() >= acked.size(),
                        () -> "acknowledgements of " + acked.size() + " records: " + acknowledged(consumers).size());
                for (VerifiableTool consumer : consumers) {
                    consumer.stop();
                }
                List<String> acknowledged = acknowledged(consumers);
                assertThat(acknowledged).doesNotHaveDuplicates().containsExactlyInAnyOrderElementsOf(acked);
                for (VerifiableTool consumer : consumers) {
                    assertThat(consumer.named("offsets_acknowledged"))
                            .allSatisfy(event -> assertThat(event.get("success").asBoolean()).as(event.toString())
                                    .isTrue());
                }
            } finally {
                for (VerifiableTool consumer : consumers) {
                    consumer.close();
                }
            }
        }
    }

    /**
     * Writes {@link #RECORDS} records spread evenly over the topic's partitions and returns their values. The
     * bounce needs most of each partition still to copy when it lands: a producer's sticky partitioner may leave a
     * partition a few dozen records, which its copier can finish between the progress check and the signal.
     */
    private static List<String> seedEvenly(String bootstrap, String topic, int partitions) throws Exception {
        List<String> values = IntStream.range(0, RECORDS).mapToObj(i -> "seed-" + i).toList();
        try (KafkaProducer<String, String> producer = Clients.producer(bootstrap, Map.of(ProducerConfig.ACKS_CONFIG,
                "all"))) {
            List<Future<RecordMetadata>> sent = new ArrayList<>();
            for (int i = 0; i < values.size(); i++) {
                sent.add(producer.send(new ProducerRecord<>(topic, i % partitions, null, values.get(i))));
            }
            for (Future<RecordMetadata> acknowledgement : sent) {
                acknowledgement.get();
            }
        }
        return values;
    }

    private static void createTopic(String bootstrap, NewTopic topic) throws Exception {
        try (Admin admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap))) {
            admin.createTopics(List.of(topic)).all().get();
        }
    }

    /**
     * VerifiableProducer as verifiable_producer.py runs it with enable_idempotence: acks=all, retries, up to five
     * requests in flight; {@code throughput} records a second (-1: as fast as it can).
     */
    private static VerifiableTool producer(String bootstrap, String topic, int records, int throughput)
            throws Exception {
        Path config = Files.createTempFile("verifiable-producer", ".properties");
        config.toFile().deleteOnExit();
        Files.writeString(config, "enable.idempotence=true\nmax.in.flight.requests.per.connection=5\n"
                + "retries=1000000\nacks=all\n");
        return VerifiableTool.start(VerifiableProducer.class, "--bootstrap-server", bootstrap, "--topic", topic,
                "--max-messages", String.valueOf(records), "--throughput", String.valueOf(throughput),
                "--acks", "-1", "--command-config", config.toString());
    }

    /** Every acknowledged record read back (all partitions, from the beginning) once: its value, at its offset. */
    private static void assertConsumedOnce(String bootstrap, String topic, int partitions, VerifiableTool producer) {
        List<JsonNode> acked = producer.named("producer_send_success");
        assertThat(acked).as(producer.describe()).hasSize(RECORDS);
        assertThat(producer.named("producer_send_error")).isEmpty();
        List<String> consumed = Clients.readAllValues(bootstrap, Map.of(), partitions(topic, partitions));
        assertThat(consumed).doesNotHaveDuplicates()
                .containsExactlyInAnyOrderElementsOf(acked.stream().map(event -> event.get("value").asText())
                        .toList());
        assertThat(acked.stream().map(SystemTestToolsTest::offsetOf)).doesNotHaveDuplicates();
    }

    private static List<TopicPartition> partitions(String topic, int count) {
        return IntStream.range(0, count).mapToObj(partition -> new TopicPartition(topic, partition)).toList();
    }

    private static String offsetOf(JsonNode event) {
        return event.get("partition").asInt() + "@" + event.get("offset").asLong();
    }

    private static VerifiableTool groupMember(String bootstrap, String topic, String groupProtocol,
                                              List<VerifiableTool> all) throws Exception {
        List<String> args = new ArrayList<>(List.of("--bootstrap-server", bootstrap, "--topic", topic,
                "--group-id", "bounced-group", "--group-protocol", groupProtocol, "--reset-policy", "earliest"));
        if (groupProtocol.equals("classic")) {
            // consumer_test.py's session timeout; the consumer protocol's is the broker's to set
            args.addAll(List.of("--session-timeout", "10000"));
        }
        VerifiableTool member = VerifiableTool.start(VerifiableConsumer.class, args.toArray(String[]::new));
        all.add(member);
        return member;
    }

    /**
     * Stops a group member with SIGTERM and checks it printed its last event, as verifiable_consumer.py waits for it:
     * what it printed while shutting down (its last records and commit) counts as much as the rest.
     */
    private static void stopCleanly(VerifiableTool member) throws Exception {
        member.stop();
        assertThat(member.last().path("name").asText()).as(member.describe()).isEqualTo("shutdown_complete");
    }

    /**
     * A member's partitions after its events, in the order it printed them: the classic protocol revokes all and
     * assigns anew (eager), the consumer protocol assigns and revokes what changes (incremental).
     */
    private static Set<Integer> assignment(VerifiableTool member) {
        Set<Integer> owned = new HashSet<>();
        for (JsonNode event : member.named(Set.of("partitions_assigned", "partitions_revoked"))) {
            boolean assigned = event.get("name").asText().equals("partitions_assigned");
            event.get("partitions").forEach(partition -> {
                if (assigned) {
                    owned.add(partition.get("partition").asInt());
                } else {
                    owned.remove(partition.get("partition").asInt());
                }
            });
        }
        return owned;
    }

    /** Waits until the live members own the partitions between them, each one at least one, none twice. */
    private static void awaitSpread(List<VerifiableTool> members, int partitions) {
        Eventually.await(GROUP_WAIT, () -> {
            List<Set<Integer>> owned = members.stream().map(SystemTestToolsTest::assignment).toList();
            Set<Integer> union = new HashSet<>();
            owned.forEach(union::addAll);
            return owned.stream().noneMatch(Set::isEmpty) && union.size() == partitions
                    && owned.stream().mapToInt(Set::size).sum() == partitions;
        }, () -> "the partitions spread over the members: "
                + members.stream().map(SystemTestToolsTest::assignment).toList());
    }

    /** The highest successful commit of each partition, over all members. */
    private static Map<Integer, Long> committed(List<VerifiableTool> members) {
        Map<Integer, Long> committed = new HashMap<>();
        for (VerifiableTool member : members) {
            for (JsonNode event : member.named("offsets_committed")) {
                if (event.get("success").asBoolean()) {
                    event.get("offsets").forEach(offset -> committed.merge(offset.get("partition").asInt(),
                            offset.get("offset").asLong(), Math::max));
                }
            }
        }
        return committed;
    }

    /** In the order they were made, across members, each partition's successful commits never go back. */
    private static void assertCommitsNeverGoBack(List<VerifiableTool> members) {
        List<JsonNode> commits = new ArrayList<>();
        members.forEach(member -> commits.addAll(member.named("offsets_committed")));
        commits.sort(Comparator.comparingLong(event -> event.get("timestamp").asLong()));
        Map<Integer, Long> last = new HashMap<>();
        for (JsonNode commit : commits) {
            if (!commit.get("success").asBoolean()) {
                continue;  // as verifiable_consumer.py: a failed commit moves nothing, the next one retries it
            }
            commit.get("offsets").forEach(offset -> {
                int partition = offset.get("partition").asInt();
                long at = offset.get("offset").asLong();
                assertThat(at).as("partition %d's commit %s after %s", partition, commit, last.get(partition))
                        .isGreaterThanOrEqualTo(last.getOrDefault(partition, 0L));
                last.put(partition, at);
            });
        }
    }

    /**
     * The members' consumed ranges of each partition, laid end to end, cover it from 0 to its committed offset with
     * no overlap (a record consumed twice) and no gap (one skipped).
     */
    private static void assertEachOffsetConsumedOnce(List<VerifiableTool> members, Map<Integer, Long> committed) {
        Map<Integer, List<long[]>> ranges = new TreeMap<>();
        for (VerifiableTool member : members) {
            for (JsonNode event : member.named("records_consumed")) {
                event.get("partitions").forEach(partition -> ranges
                        .computeIfAbsent(partition.get("partition").asInt(), key -> new ArrayList<>())
                        .add(new long[] {partition.get("minOffset").asLong(), partition.get("maxOffset").asLong()}));
            }
        }
        assertThat(ranges.keySet()).isEqualTo(committed.keySet());
        ranges.forEach((partition, consumed) -> {
            consumed.sort(Comparator.comparingLong(range -> range[0]));
            long next = 0;
            for (long[] range : consumed) {
                assertThat(range[0]).as("partition %d: consumed from %d, next expected %d", partition, range[0], next)
                        .isEqualTo(next);
                next = range[1] + 1;
            }
            assertThat(next).as("partition %d consumed up to its commit", partition).isEqualTo(committed.get(partition));
        });
    }

    /**
     * transactional_message_copier.py's copier, with use_group_metadata, a transaction per 100 records (the system
     * test's 750 scaled down with the record count) and a transaction timeout of 10 s.
     */
    private static VerifiableTool copier(String bootstrap, int partition) throws Exception {
        return VerifiableTool.start(TransactionalMessageCopier.class, "--broker-list", bootstrap,
                "--transactional-id", "copier-" + partition, "--consumer-group", "copiers",
                "--input-topic", "input", "--input-partition", String.valueOf(partition),
                "--output-topic", "output", "--max-messages", "-1", "--transaction-size", "100",
                "--transaction-timeout", "10000", "--use-group-metadata");
    }

    /** The copier's progress, as transactional_message_copier.py's progress_percent: copied over copied and left. */
    private static double progress(VerifiableTool copier) {
        JsonNode last = copier.last();
        long consumed = last.path("consumed").asLong();
        long remaining = last.path("remaining").asLong();
        return consumed + remaining == 0 ? 0 : (double) consumed / (consumed + remaining);
    }

    /** The (partition, offset) of every successful acknowledgement, one entry per acknowledgement. */
    private static List<String> acknowledged(List<VerifiableTool> consumers) {
        List<String> acknowledged = new ArrayList<>();
        for (VerifiableTool consumer : consumers) {
            for (JsonNode event : consumer.named("offsets_acknowledged")) {
                if (event.get("success").asBoolean()) {
                    event.get("partitions").forEach(partition -> partition.get("offsets").forEach(offset ->
                            acknowledged.add(partition.get("partition").asInt() + "@" + offset.asLong())));
                }
            }
        }
        return acknowledged;
    }
}
