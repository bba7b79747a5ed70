package io.minibroker.broker.group;

import io.minibroker.broker.embedded.MiniCluster;
import io.minibroker.broker.server.SessionClock;
import io.minibroker.broker.topic.InternalTopics;
import io.minibroker.protocol.error.Errors;
import io.minibroker.protocol.message.ApiKey;
import io.minibroker.protocol.message.view.ConsumerGroupHeartbeatRequestView;
import io.minibroker.protocol.message.view.ConsumerGroupHeartbeatResponseView;
import io.minibroker.protocol.message.view.MetadataRequestView;
import io.minibroker.protocol.message.view.MetadataResponseView;
import io.minibroker.protocol.message.view.ShareGroupDescribeRequestView;
import io.minibroker.protocol.message.view.ShareGroupDescribeResponseView;
import io.minibroker.protocol.message.view.ShareGroupHeartbeatRequestView;
import io.minibroker.protocol.message.view.ShareGroupHeartbeatResponseView;
import io.minibroker.protocol.schema.Struct;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewPartitions;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerGroupMetadata;
import org.apache.kafka.clients.consumer.ConsumerRebalanceListener;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.Node;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.config.ConfigResource;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.IntConsumer;

import static io.minibroker.broker.server.Eventually.await;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Consumer groups in a three-node cluster with {@code __consumer_offsets} replicated three times: every node sends a
 * group's clients to the leader of the group's offsets partition, the others refuse its requests, and when that
 * leader stops or dies its commits and its groups' members are still there on the broker that takes the partition
 * over, so the members carry on without a rebalance.
 *
 * <p>The cluster runs on a manual clock that moves on by itself ({@link SessionClock#startRunning}), never past a
 * live node's last heartbeat: a killed coordinator's session runs out, but no live node's on a loaded machine.
 */
@Timeout(180)
class GroupCoordinatorFailoverTest {

    private static final String TOPIC = "orders";
    private static final int OFFSETS_PARTITIONS = 6;

    private MiniCluster cluster;
    private SessionClock.Running running;

    @BeforeEach
    void start() throws Exception {
        running = SessionClock.startRunning(3, 1_500, Map.of("replica.lag.time.max.ms", "3000",
                "group.initial.rebalance.delay.ms", "0", "group.consumer.heartbeat.interval.ms", "500",
                "group.consumer.min.heartbeat.interval.ms", "500",
                "offsets.topic.num.partitions", Integer.toString(OFFSETS_PARTITIONS),
                "offsets.topic.replication.factor", "3"));
        cluster = running.cluster();
        try (Admin admin = admin(0)) {
            admin.createTopics(List.of(new NewTopic(TOPIC, 3, (short) 3))).all().get();
        }
    }

    @AfterEach
    void close() {
        running.close();
    }

    @Test
    void everyNodeNamesTheLeaderOfTheGroupsOffsetsPartitionAndTheOthersRefuseTheGroup() throws Exception {
        String group = "find-me";
        int coordinator = awaitCoordinator(0, group);
        for (int node = 1; node < 3; node++) {
            assertThat(awaitCoordinator(node, group)).as("the coordinator node %d names", node).isEqualTo(coordinator);
            assertThat(findCoordinatorV3(node, group)).as("v3, on node %d", node).isEqualTo(coordinator);
        }
        assertThat(coordinator).as("the leader of __consumer_offsets-partitionFor(group)")
                .isEqualTo(offsetsLeader(InternalTopics.partitionFor(group, OFFSETS_PARTITIONS)));
        assertThat(offsetsTopic().partitions()).allSatisfy(p -> assertThat(p.replicas()).hasSize(3));
        try (Admin admin = admin(coordinator)) {
            ConfigResource offsets = new ConfigResource(ConfigResource.Type.TOPIC, OffsetsTopic.NAME);
            assertThat(admin.describeConfigs(List.of(offsets)).all().get().get(offsets).get("cleanup.policy").value())
                    .as("compacted, as Kafka creates it").isEqualTo("compact");
        }

        int other = (coordinator + 1) % 3;
        assertThat(offsetFetchError(other, group)).isEqualTo(Errors.NOT_COORDINATOR);
        assertThat(heartbeatError(other, group)).isEqualTo(Errors.NOT_COORDINATOR);
        await(() -> offsetFetchError(coordinator, group) == Errors.NONE, "the coordinator to serve the group");
    }

    @Test
    void aStoppedBrokerStillCountsForTheOffsetsTopicsReplicationFactor() throws Exception {
        cluster.stop(2); // fenced but registered: as with Kafka's StripedReplicaPlacer, it is given replicas
        await(() -> cluster.controller().membership().liveBrokers().size() == 2, "two live brokers");

        assertThat(awaitCoordinator(0, "early")).as("a live leader").isBetween(0, 1);
        assertThat(offsetsTopic().partitions()).allSatisfy(p -> {
            assertThat(p.replicas()).hasSize(3);
            assertThat(p.isr()).extracting(Node::id).doesNotContain(2);
        });
    }

    @Test
    void aMemberCarriesOnWithItsGenerationAtTheNewCoordinatorWhenTheCoordinatorStops() throws Exception {
        String group = groupNotCoordinatedByTheController();
        int coordinator = awaitCoordinator(0, group);
        await(() -> offsetFetchError(coordinator, group) == Errors.NONE, "the coordinator to serve the group");
        String memberId;
        int generation;
        try (GroupWireClient member = new GroupWireClient(cluster.node(coordinator).boundPort("PLAINTEXT"))) {
            memberId = member.call(ApiKey.JOIN_GROUP, 9, GroupProtocolErrorsTest.joinRequest(group, "", 30_000,
                    new byte[]{9})).getString("MemberId");
            Struct joined = member.call(ApiKey.JOIN_GROUP, 9, GroupProtocolErrorsTest.joinRequest(group, memberId,
                    30_000, new byte[]{9}));
            assertThat(Errors.forCode(joined.getInt16("ErrorCode"))).isEqualTo(Errors.NONE);
            generation = joined.getInt32("GenerationId");
            Struct sync = ApiKey.SYNC_GROUP.request().newMessage().set("GroupId", group)
                    .set("GenerationId", generation).set("MemberId", memberId)
                    .set("ProtocolType", "consumer").set("ProtocolName", "range");
            sync.addElement("Assignments").set("MemberId", memberId).set("Assignment", new byte[]{7});
            assertThat(Errors.forCode(member.call(ApiKey.SYNC_GROUP, 5, sync).getInt16("ErrorCode")))
                    .isEqualTo(Errors.NONE);
        }

        int successor = takeOver(cluster::stop, coordinator, group);

        Struct heartbeat = call(successor, ApiKey.HEARTBEAT, 4, ApiKey.HEARTBEAT.request().newMessage()
                .set("GroupId", group).set("GenerationId", generation).set("MemberId", memberId));
        assertThat(Errors.forCode(heartbeat.getInt16("ErrorCode"))).as("the old generation's heartbeat")
                .isEqualTo(Errors.NONE);
        Struct described = call(successor, ApiKey.DESCRIBE_GROUPS, 5, ApiKey.DESCRIBE_GROUPS.request()
                .newMessage().set("Groups", List.of(group))).getStructs("Groups").get(0);
        assertThat(described.getString("GroupState")).isEqualTo("Stable");
        assertThat(described.getStructs("Members")).singleElement().satisfies(m -> {
            assertThat(m.getString("MemberId")).isEqualTo(memberId);
            assertThat(m.getBytes("MemberAssignment")).containsExactly(7);
        });
    }

    /** A share group's member (KIP-932) keeps its epoch and partitions at the node that takes the group over. */
    @Test
    void aShareGroupMemberCarriesOnAtTheNewCoordinatorWhenTheCoordinatorCrashes() throws Exception {
        String group = groupNotCoordinatedByTheController();
        int coordinator = awaitCoordinator(0, group);
        await(() -> offsetFetchError(coordinator, group) == Errors.NONE, "the coordinator to serve the group");
        ShareGroupHeartbeatResponseView joined = new ShareGroupHeartbeatResponseView(call(coordinator,
                ApiKey.SHARE_GROUP_HEARTBEAT, 1, new ShareGroupHeartbeatRequestView().groupId(group).memberId("m1")
                        .memberEpoch(0).subscribedTopicNames(List.of(TOPIC)).struct()));
        assertThat(joined.errorCode()).isEqualTo(Errors.NONE.code());
        // Assigned by a later heartbeat, once the partitions' share state is initialized (as Kafka's coordinator).
        ShareGroupHeartbeatResponseView[] assigned = {joined};
        await(() -> {
            assigned[0] = new ShareGroupHeartbeatResponseView(call(coordinator, ApiKey.SHARE_GROUP_HEARTBEAT, 1,
                    new ShareGroupHeartbeatRequestView().groupId(group).memberId("m1")
                            .memberEpoch(assigned[0].memberEpoch()).struct()));
            return assigned[0].assignment() != null && !assigned[0].assignment().topicPartitions().isEmpty();
        }, "the partitions assigned once initialized");
        assertThat(assigned[0].assignment().topicPartitions().get(0).partitions()).containsExactly(0, 1, 2);

        int successor = takeOver(cluster::kill, coordinator, group);

        ShareGroupHeartbeatResponseView carriesOn = new ShareGroupHeartbeatResponseView(call(successor,
                ApiKey.SHARE_GROUP_HEARTBEAT, 1, new ShareGroupHeartbeatRequestView().groupId(group).memberId("m1")
                        .memberEpoch(assigned[0].memberEpoch()).struct()));
        assertThat(carriesOn.errorCode()).as("the member's epoch, known to the new coordinator")
                .isEqualTo(Errors.NONE.code());
        assertThat(carriesOn.memberEpoch()).isEqualTo(assigned[0].memberEpoch());
        ShareGroupDescribeResponseView.DescribedGroup described = new ShareGroupDescribeResponseView(call(
                successor, ApiKey.SHARE_GROUP_DESCRIBE, 1,
                new ShareGroupDescribeRequestView().groupIds(List.of(group)).struct())).groups().get(0);
        assertThat(described.groupState()).isEqualTo("Stable");
        assertThat(described.members()).singleElement().satisfies(m -> assertThat(m.assignment().topicPartitions()
                .get(0).partitions()).containsExactly(0, 1, 2));
    }

    /**
     * KIP-1101 across a failover: the topic grows while the group's coordinator runs but hears no heartbeat, so the
     * group's record still holds the hash of three partitions; the coordinator stops, and the node that loads the
     * group finds six. The member's first heartbeat there bumps the group epoch and is assigned the six, where taking
     * the topics as they were at the load would have left the group at its epoch with three.
     */
    @Test
    void partitionsAddedBeforeTheFailoverAreAssignedByTheNewCoordinator() throws Exception {
        String group = groupNotCoordinatedByTheController();
        int coordinator = awaitCoordinator(0, group);
        await(() -> offsetFetchError(coordinator, group) == Errors.NONE, "the coordinator to serve the group");
        ConsumerGroupHeartbeatResponseView joined = consumerHeartbeat(coordinator,
                new ConsumerGroupHeartbeatRequestView().groupId(group).memberId("m1").memberEpoch(0)
                        .rebalanceTimeoutMs(30_000).subscribedTopicNames(List.of(TOPIC)).topicPartitions(List.of()));
        assertThat(joined.errorCode()).isEqualTo(Errors.NONE.code());
        assertThat(joined.assignment().topicPartitions()).singleElement()
                .satisfies(topic -> assertThat(topic.partitions()).containsExactlyInAnyOrder(0, 1, 2));
        int epoch = joined.memberEpoch();

        try (Admin admin = admin(0)) {
            admin.createPartitions(Map.of(TOPIC, NewPartitions.increaseTo(6))).all().get();
        }
        for (int node = 0; node < 3; node++) {
            int asked = node;
            await(() -> partitionCount(asked) == 6, "node " + asked + " to know the six partitions");
        }
        int successor = takeOver(cluster::stop, coordinator, group);

        ConsumerGroupHeartbeatResponseView after = consumerHeartbeat(successor,
                new ConsumerGroupHeartbeatRequestView().groupId(group).memberId("m1").memberEpoch(epoch));
        assertThat(after.errorCode()).isEqualTo(Errors.NONE.code());
        assertThat(after.memberEpoch()).as("the stored hash is not the topic's now").isEqualTo(epoch + 1);
        assertThat(after.assignment().topicPartitions()).singleElement()
                .satisfies(topic -> assertThat(topic.partitions()).containsExactlyInAnyOrder(0, 1, 2, 3, 4, 5));
    }

    private ConsumerGroupHeartbeatResponseView consumerHeartbeat(int node, ConsumerGroupHeartbeatRequestView request) {
        return new ConsumerGroupHeartbeatResponseView(call(node, ApiKey.CONSUMER_GROUP_HEARTBEAT, 1, request.struct()));
    }

    /** The partition count of the test's topic in node {@code node}'s Metadata answer, -1 if it has none. */
    private int partitionCount(int node) {
        MetadataResponseView answer = new MetadataResponseView(call(node, ApiKey.METADATA, 12,
                new MetadataRequestView().topics(null).struct()));
        return answer.topics().stream().filter(topic -> TOPIC.equals(topic.name())).findFirst()
                .map(topic -> topic.partitions().size()).orElse(-1);
    }

    @Test
    void aConsumerResumesFromItsCommitsWhenTheCoordinatorStops() throws Exception {
        consumeThroughCoordinatorLoss(cluster::stop, false);
    }

    @Test
    void aConsumerResumesFromItsCommitsWhenTheCoordinatorCrashes() throws Exception {
        consumeThroughCoordinatorLoss(cluster::kill, false);
    }

    /** The same with {@code group.protocol=consumer} (KIP-848): the new coordinator loads the consumer group too. */
    @Test
    void aConsumerProtocolMemberCarriesOnWhenTheCoordinatorCrashes() throws Exception {
        consumeThroughCoordinatorLoss(cluster::kill, true);
    }

    /**
     * A consumer reads and commits half the records, its coordinator is taken down, it reads and commits the rest;
     * it is assigned its partitions once only and keeps its member id and generation (member epoch): the new
     * coordinator knew the group, so there was no rebalance. It never gets a record below what it had committed,
     * and gets every record. Every remaining node's admin then lists the final commits, and a new consumer of the
     * group starts after them.
     *
     * <p>The listener's calls are kept in order, so that a failure tells how the consumer was rebalanced: a member
     * fenced by its coordinator loses its partitions and is assigned them again when it rejoins; a new target
     * assignment revokes some; a first assignment whose topic the client cannot name yet is an empty one.
     */
    private void consumeThroughCoordinatorLoss(IntConsumer takeDown, boolean consumerProtocol) throws Exception {
        String group = groupNotCoordinatedByTheController();
        int coordinator = awaitCoordinator(0, group);
        produce(0, 50);
        Map<TopicPartition, Long> committed = new HashMap<>();
        Set<String> seen = new HashSet<>();
        List<String> rebalances = new ArrayList<>(); // called on this thread, in poll
        try (KafkaConsumer<String, String> consumer = consumer(group, consumerProtocol)) {
            consumer.subscribe(List.of(TOPIC), new ConsumerRebalanceListener() {
                @Override
                public void onPartitionsRevoked(Collection<TopicPartition> partitions) {
                    rebalances.add("revoked " + numbers(partitions));
                }

                @Override
                public void onPartitionsAssigned(Collection<TopicPartition> partitions) {
                    rebalances.add("assigned " + numbers(partitions));
                }

                @Override
                public void onPartitionsLost(Collection<TopicPartition> partitions) {
                    rebalances.add("lost " + numbers(partitions));
                }
            });
            consumeAndCommit(consumer, 50, seen, committed);
            ConsumerGroupMetadata before = consumer.groupMetadata();
            takeDown.accept(coordinator);
            produce(50, 100);
            consumeAndCommit(consumer, 100, seen, committed);
            ConsumerGroupMetadata after = consumer.groupMetadata();
            assertThat(rebalances).as("the rebalance listener's calls").containsExactly("assigned [0, 1, 2]");
            assertThat(List.of(after.memberId(), after.generationId()))
                    .as("member id and generation after the coordinator's loss, calls %s", rebalances)
                    .isEqualTo(List.of(before.memberId(), before.generationId()));
        }
        assertThat(seen).as("every record").hasSize(100);
        assertThat(committed.values().stream().mapToLong(Long::longValue).sum()).isEqualTo(100);
        assertThat(awaitCoordinator(0, group)).as("a new coordinator").isNotEqualTo(coordinator);

        for (int node = 0; node < 3; node++) {
            if (node == coordinator) {
                continue;
            }
            try (Admin admin = admin(node)) {
                Map<TopicPartition, OffsetAndMetadata> listed =
                        admin.listConsumerGroupOffsets(group).partitionsToOffsetAndMetadata().get();
                Map<TopicPartition, Long> offsets = new HashMap<>();
                listed.forEach((partition, offset) -> offsets.put(partition, offset.offset()));
                assertThat(offsets).as("the commits, listed through node %d", node).isEqualTo(committed);
            }
        }

        produce(100, 110);
        Set<String> afterwards = new HashSet<>();
        try (KafkaConsumer<String, String> consumer = consumer(group, consumerProtocol)) {
            consumer.subscribe(List.of(TOPIC));
            consumeAndCommit(consumer, 10, afterwards, committed);
        }
        assertThat(afterwards).as("only what came after the last commit")
                .isEqualTo(Set.copyOf(values(100, 110)));
    }

    /**
     * Polls until {@code seen} holds {@code total} distinct records, committing what each poll returned; fails if a
     * record comes back below the offset last committed for its partition (a commit lost).
     */
    private static void consumeAndCommit(KafkaConsumer<String, String> consumer, int total, Set<String> seen,
                                         Map<TopicPartition, Long> committed) {
        long deadline = System.nanoTime() + Duration.ofSeconds(90).toNanos();
        while (seen.size() < total && System.nanoTime() < deadline) {
            Map<TopicPartition, OffsetAndMetadata> toCommit = new HashMap<>();
            for (ConsumerRecord<String, String> record : consumer.poll(Duration.ofMillis(200))) {
                TopicPartition partition = new TopicPartition(record.topic(), record.partition());
                assertThat(record.offset()).as("%s of %s, committed up to %s", record.value(), partition,
                        committed.get(partition)).isGreaterThanOrEqualTo(committed.getOrDefault(partition, 0L));
                seen.add(record.value());
                toCommit.put(partition, new OffsetAndMetadata(record.offset() + 1));
            }
            if (toCommit.isEmpty()) {
                continue;
            }
            consumer.commitSync(toCommit); // the group is not rebalanced, so a commit never fails for good
            toCommit.forEach((partition, offset) -> committed.put(partition, offset.offset()));
        }
        assertThat(seen).as("records read").hasSize(total);
    }

    /** A group whose coordinator is not node 0: taking it down leaves the controller up. */
    private String groupNotCoordinatedByTheController() {
        awaitCoordinator(0, "any"); // creates the offsets topic
        TopicDescription offsets = offsetsTopic();
        for (int i = 0; ; i++) {
            String group = "group-" + i;
            Node leader = offsets.partitions().get(InternalTopics.partitionFor(group, OFFSETS_PARTITIONS)).leader();
            if (leader != null && leader.id() != MiniCluster.CONTROLLER_ID) {
                return group;
            }
        }
    }

    /** Takes the coordinator down; the node that then coordinates the group, once its partition is loaded there. */
    private int takeOver(IntConsumer takeDown, int coordinator, String group) {
        takeDown.accept(coordinator);
        int[] successor = {-1};
        await(() -> {
            successor[0] = awaitCoordinator(0, group);
            return successor[0] != coordinator && offsetFetchError(successor[0], group) == Errors.NONE;
        }, "another node to coordinate " + group + " with its partition loaded");
        return successor[0];
    }

    /** The coordinator node {@code node} names (FindCoordinator v4), once it names one. */
    private int awaitCoordinator(int node, String group) {
        int[] found = {-1};
        await(() -> {
            Struct request = ApiKey.FIND_COORDINATOR.request().newMessage().set("KeyType", (byte) 0)
                    .set("CoordinatorKeys", List.of(group));
            Struct answer = call(node, ApiKey.FIND_COORDINATOR, 4, request).getStructs("Coordinators").get(0);
            found[0] = answer.getInt16("ErrorCode") == Errors.NONE.code() ? answer.getInt32("NodeId") : -1;
            return found[0] >= 0;
        }, "node " + node + " to name the coordinator of " + group);
        return found[0];
    }

    private int findCoordinatorV3(int node, String group) {
        Struct answer = call(node, ApiKey.FIND_COORDINATOR, 3, ApiKey.FIND_COORDINATOR.request().newMessage()
                .set("Key", group).set("KeyType", (byte) 0));
        assertThat(Errors.forCode(answer.getInt16("ErrorCode"))).isEqualTo(Errors.NONE);
        return answer.getInt32("NodeId");
    }

    private Errors offsetFetchError(int node, String group) {
        Struct request = ApiKey.OFFSET_FETCH.request().newMessage();
        request.addElement("Groups").set("GroupId", group).set("Topics", null);
        Struct answer = call(node, ApiKey.OFFSET_FETCH, 8, request);
        return Errors.forCode(answer.getStructs("Groups").get(0).getInt16("ErrorCode"));
    }

    private Errors heartbeatError(int node, String group) {
        Struct answer = call(node, ApiKey.HEARTBEAT, 4, ApiKey.HEARTBEAT.request().newMessage()
                .set("GroupId", group).set("GenerationId", 1).set("MemberId", "someone"));
        return Errors.forCode(answer.getInt16("ErrorCode"));
    }

    private Struct call(int node, ApiKey api, int version, Struct request) {
        try (GroupWireClient client = new GroupWireClient(cluster.node(node).boundPort("PLAINTEXT"))) {
            return client.call(api, version, request);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private int offsetsLeader(int partition) {
        return offsetsTopic().partitions().get(partition).leader().id();
    }

    /** The offsets topic as the metadata describes it, once every node the admin may ask knows it. */
    private TopicDescription offsetsTopic() {
        TopicDescription[] described = new TopicDescription[1];
        await(() -> {
            try (Admin admin = admin(0)) {
                described[0] = admin.describeTopics(List.of(OffsetsTopic.NAME)).allTopicNames().get()
                        .get(OffsetsTopic.NAME);
                return described[0].partitions().stream().allMatch(p -> p.leader() != null);
            } catch (Exception e) {
                return false;
            }
        }, "the metadata to describe " + OffsetsTopic.NAME);
        return described[0];
    }

    private void produce(int from, int to) throws Exception {
        try (KafkaProducer<String, String> producer = new KafkaProducer<>(Map.of(
                ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap(0), ProducerConfig.ACKS_CONFIG, "all",
                ProducerConfig.DELIVERY_TIMEOUT_MS_CONFIG, "60000", ProducerConfig.REQUEST_TIMEOUT_MS_CONFIG, "3000"),
                new StringSerializer(), new StringSerializer())) {
            for (String value : values(from, to)) {
                producer.send(new ProducerRecord<>(TOPIC, value, value));
            }
            producer.flush();
        }
    }

    private static List<String> values(int from, int to) {
        List<String> values = new ArrayList<>();
        for (int i = from; i < to; i++) {
            values.add("v" + i);
        }
        return values;
    }

    /** The partition numbers, in order (the consumers pass them in orders of their own). */
    private static List<Integer> numbers(Collection<TopicPartition> partitions) {
        return partitions.stream().map(TopicPartition::partition).sorted().toList();
    }

    /** A consumer of the group that bootstraps from the controller's node, which stays up. */
    private KafkaConsumer<String, String> consumer(String group) {
        return consumer(group, false);
    }

    /** A consumer of the classic protocol, or of KIP-848's (whose timeouts are the broker's to set). */
    private KafkaConsumer<String, String> consumer(String group, boolean consumerProtocol) {
        Map<String, Object> config = new HashMap<>(Map.of(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap(0),
                ConsumerConfig.GROUP_ID_CONFIG, group, ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest",
                ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, "false"));
        if (consumerProtocol) {
            config.put(ConsumerConfig.GROUP_PROTOCOL_CONFIG, "consumer");
        } else {
            config.put(ConsumerConfig.HEARTBEAT_INTERVAL_MS_CONFIG, "500");
            config.put(ConsumerConfig.SESSION_TIMEOUT_MS_CONFIG, "10000");
        }
        return new KafkaConsumer<>(config, new StringDeserializer(), new StringDeserializer());
    }

    private Admin admin(int node) {
        return Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap(node)));
    }

    private String bootstrap(int node) {
        return "localhost:" + cluster.node(node).boundPort("PLAINTEXT");
    }
}
