package io.minibroker.broker.cluster;

import io.minibroker.broker.admin.ConfigResources;
import io.minibroker.broker.embedded.MiniCluster;
import io.minibroker.broker.server.SessionClock;
import io.minibroker.broker.group.GroupCoordinator;
import io.minibroker.protocol.error.Errors;
import io.minibroker.protocol.message.ApiKey;
import io.minibroker.protocol.message.view.ConsumerGroupHeartbeatRequestView;
import io.minibroker.protocol.message.view.ConsumerGroupHeartbeatResponseView;
import io.minibroker.protocol.message.view.ShareGroupHeartbeatRequestView;
import io.minibroker.protocol.message.view.ShareGroupHeartbeatResponseView;
import io.minibroker.protocol.schema.Struct;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.AlterConfigOp;
import org.apache.kafka.clients.admin.Config;
import org.apache.kafka.clients.admin.ConfigEntry;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.KafkaShareConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.config.ConfigResource;
import org.apache.kafka.common.errors.InvalidConfigurationException;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import static io.minibroker.broker.server.Eventually.await;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Group configs (resource type GROUP) in a cluster of three, as Kafka's are ConfigRecords of the metadata log:
 * changed through one node, they are the controller's, another node describes them, and the group's coordinator and
 * its partition's leader on a third node apply them; the controller keeps them across restarts.
 *
 * <p>The cluster runs on a manual clock that moves on by itself ({@link SessionClock#startRunning}), never past a
 * live node's last heartbeat: no live node's session runs out on a loaded machine, moving the group's coordinator.
 */
@Timeout(180)
class ClusterGroupConfigsTest {

    private static final String GROUP = "workers";
    private static final String TOPIC = "jobs";
    /** Where the change is sent, which node describes it, and where the group's coordinator and leader are. */
    private static final int ALTERED_ON = 1;
    private static final int DESCRIBED_ON = MiniCluster.CONTROLLER_ID;
    private static final int COORDINATOR = 2;
    private static final int OFFSETS_PARTITIONS = 3;

    private MiniCluster cluster;
    private SessionClock.Running running;

    @BeforeEach
    void start() throws Exception {
        running = SessionClock.startRunning(3, 3_000, Map.of(
                "offsets.topic.num.partitions", Integer.toString(OFFSETS_PARTITIONS),
                "offsets.topic.replication.factor", "3"));
        cluster = running.cluster();
    }

    @AfterEach
    void close() {
        running.close();
    }

    @Test
    void aGroupConfigAlteredThroughOneNodeIsDescribedByAnotherAndAppliedOnAThird() throws Exception {
        try (Admin admin = admin(ALTERED_ON)) {
            admin.createTopics(List.of(new NewTopic(TOPIC, 1, (short) 3))).all().get();
        }
        awaitCoordinator(ALTERED_ON); // has __consumer_offsets created
        cluster.moveGroupCoordinator(GROUP, COORDINATOR);
        cluster.moveLeader(TOPIC, 0, COORDINATOR);
        await(() -> awaitCoordinator(ALTERED_ON) == COORDINATOR, "the coordinator to move");
        assertThat(heartbeatIntervalAt(COORDINATOR)).as("before: the broker's default").isEqualTo(5_000);

        try (Admin admin = admin(ALTERED_ON)) {
            alter(admin, Map.of("share.heartbeat.interval.ms", "7000", "share.record.lock.duration.ms", "15000"));
            Config described = admin.describeConfigs(List.of(new ConfigResource(ConfigResource.Type.GROUP, GROUP)))
                    .all().get().values().iterator().next();
            assertThat(described.get("share.record.lock.duration.ms").value()).isEqualTo("15000");
            assertThat(described.get("share.record.lock.duration.ms").source())
                    .isEqualTo(ConfigEntry.ConfigSource.DYNAMIC_GROUP_CONFIG);
        }
        await(() -> described(DESCRIBED_ON, "share.record.lock.duration.ms", "15000"),
                "node " + DESCRIBED_ON + " to describe the change");
        for (int node = 0; node < 3; node++) {
            int id = node;
            await(() -> described(id, "share.heartbeat.interval.ms", "7000"), "node " + id + " to describe it");
        }

        assertThat(heartbeatIntervalAt(COORDINATOR)).as("the coordinator's answer").isEqualTo(7_000);
        // A KIP-848 consumer group coordinated by the same offsets partition: its own configs, the same path.
        String consumers = sameCoordinatorAs(GROUP);
        try (Admin admin = admin(ALTERED_ON)) {
            admin.incrementalAlterConfigs(Map.of(new ConfigResource(ConfigResource.Type.GROUP, consumers), List.of(
                    new AlterConfigOp(new ConfigEntry("consumer.heartbeat.interval.ms", "6000"),
                            AlterConfigOp.OpType.SET)))).all().get();
        }
        await(() -> consumerHeartbeatIntervalAt(COORDINATOR, consumers) == 6_000,
                "the coordinator to give " + consumers + " its heartbeat interval");
        try (KafkaShareConsumer<String, String> consumer = shareConsumer();
             KafkaProducer<String, String> producer = new KafkaProducer<>(Map.of(
                     ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, cluster.bootstrapServers()),
                     new StringSerializer(), new StringSerializer())) {
            consumer.subscribe(List.of(TOPIC));
            // Produced until the share partition (started at the high watermark by the first fetch) delivers: the
            // lock duration is that of the records last acquired.
            await(() -> {
                producer.send(new ProducerRecord<>(TOPIC, "job"));
                producer.flush();
                return !consumer.poll(Duration.ofMillis(100)).isEmpty();
            }, "records acquired from the partition's leader");
            assertThat(consumer.acquisitionLockTimeoutMs()).as("the leader's lock duration for the group")
                    .contains(15_000);
        }
    }

    @Test
    void anInvalidGroupConfigIsRefusedByTheController() throws Exception {
        try (Admin admin = admin(ALTERED_ON)) {
            assertThatThrownBy(() -> alter(admin, Map.of("share.record.lock.duration.ms", "10")))
                    .hasCauseInstanceOf(InvalidConfigurationException.class);
            assertThatThrownBy(() -> alter(admin, Map.of("share.no.such.config", "1")))
                    .hasCauseInstanceOf(InvalidConfigurationException.class);
        }
        assertThat(describedFrom(COORDINATOR, "share.record.lock.duration.ms", "30000",
                ConfigResources.DEFAULT_CONFIG)).isTrue();
    }

    @Test
    void groupConfigsAreKeptAcrossRestartsOfTheControllerAndTheBrokers() throws Exception {
        try (Admin admin = admin(ALTERED_ON)) {
            alter(admin, Map.of("share.delivery.count.limit", "3"));
        }
        await(() -> described(COORDINATOR, "share.delivery.count.limit", "3"), "the change to reach every node");
        cluster.stop(COORDINATOR);
        cluster.stop(MiniCluster.CONTROLLER_ID);
        cluster.restart(MiniCluster.CONTROLLER_ID);
        cluster.restart(COORDINATOR); // its copy now comes from the restarted controller's image
        await(() -> described(COORDINATOR, "share.delivery.count.limit", "3"), "the restarted broker to have it");
        await(() -> described(MiniCluster.CONTROLLER_ID, "share.delivery.count.limit", "3"),
                "the restarted controller's node to have it");

        try (Admin admin = admin(ALTERED_ON)) { // and removed again, everywhere
            admin.incrementalAlterConfigs(Map.of(new ConfigResource(ConfigResource.Type.GROUP, GROUP), List.of(
                    new AlterConfigOp(new ConfigEntry("share.delivery.count.limit", null),
                            AlterConfigOp.OpType.DELETE)))).all().get();
        }
        for (int node = 0; node < 3; node++) {
            int id = node;
            await(() -> describedFrom(id, "share.delivery.count.limit", "5", ConfigResources.DEFAULT_CONFIG),
                    "node " + id + " to fall back to the default");
        }
    }

    private Admin admin(int node) {
        return Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG,
                "localhost:" + cluster.node(node).boundPort("PLAINTEXT")));
    }

    private KafkaShareConsumer<String, String> shareConsumer() {
        return new KafkaShareConsumer<>(Map.of(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, cluster.bootstrapServers(),
                ConsumerConfig.GROUP_ID_CONFIG, GROUP), new StringDeserializer(), new StringDeserializer());
    }

    private static void alter(Admin admin, Map<String, String> configs) throws Exception {
        admin.incrementalAlterConfigs(Map.of(new ConfigResource(ConfigResource.Type.GROUP, GROUP),
                configs.entrySet().stream().map(config -> new AlterConfigOp(
                        new ConfigEntry(config.getKey(), config.getValue()), AlterConfigOp.OpType.SET)).toList()))
                .all().get();
    }

    private boolean described(int node, String name, String value) {
        return describedFrom(node, name, value, ConfigResources.DYNAMIC_GROUP_CONFIG);
    }

    /** Whether this very node (an Admin would pick any) describes the group's config so. */
    private boolean describedFrom(int node, String name, String value, byte source) {
        Struct request = ApiKey.DESCRIBE_CONFIGS.request().newMessage();
        request.addElement("Resources").set("ResourceType", ConfigResources.GROUP).set("ResourceName", GROUP)
                .set("ConfigurationKeys", List.of(name));
        Struct result = call(node, ApiKey.DESCRIBE_CONFIGS, 4, request).getStructs("Results").get(0);
        if (result.getInt16("ErrorCode") != Errors.NONE.code()) {
            return false;
        }
        Struct config = result.getStructs("Configs").get(0);
        return value.equals(config.getString("Value")) && (Byte) config.get("ConfigSource") == source;
    }

    /** The heartbeat interval a new share-group member is given by this node, once it coordinates the group. */
    private int heartbeatIntervalAt(int node) {
        int[] interval = {-1};
        await(() -> {
            ShareGroupHeartbeatResponseView joined = new ShareGroupHeartbeatResponseView(call(node,
                    ApiKey.SHARE_GROUP_HEARTBEAT, 1, new ShareGroupHeartbeatRequestView().groupId(GROUP)
                            .memberId(UUID.randomUUID().toString()).memberEpoch(0)
                            .subscribedTopicNames(List.of(TOPIC)).struct()));
            interval[0] = joined.errorCode() == Errors.NONE.code() ? joined.heartbeatIntervalMs() : -1;
            return interval[0] >= 0;
        }, "node " + node + " to coordinate " + GROUP);
        return interval[0];
    }

    /** A consumer group id of the same offsets partition as {@code group}, so of the same coordinator. */
    private static String sameCoordinatorAs(String group) {
        int partition = GroupCoordinator.offsetsPartitionFor(group, OFFSETS_PARTITIONS);
        for (int i = 0; ; i++) {
            if (GroupCoordinator.offsetsPartitionFor("consumers-" + i, OFFSETS_PARTITIONS) == partition) {
                return "consumers-" + i;
            }
        }
    }

    /** The heartbeat interval a new consumer-protocol member of {@code group} is given by this node; -1 on error. */
    private int consumerHeartbeatIntervalAt(int node, String group) {
        ConsumerGroupHeartbeatResponseView joined = new ConsumerGroupHeartbeatResponseView(call(node,
                ApiKey.CONSUMER_GROUP_HEARTBEAT, 1, new ConsumerGroupHeartbeatRequestView().groupId(group)
                        .memberId(UUID.randomUUID().toString()).memberEpoch(0).rebalanceTimeoutMs(30_000)
                        .subscribedTopicNames(List.of(TOPIC)).topicPartitions(List.of()).struct()));
        return joined.errorCode() == Errors.NONE.code() ? joined.heartbeatIntervalMs() : -1;
    }

    /** The group's coordinator as {@code node} names it (FindCoordinator v4), once it names one. */
    private int awaitCoordinator(int node) {
        int[] found = {-1};
        await(() -> {
            Struct request = ApiKey.FIND_COORDINATOR.request().newMessage().set("KeyType", (byte) 0)
                    .set("CoordinatorKeys", List.of(GROUP));
            Struct answer = call(node, ApiKey.FIND_COORDINATOR, 4, request).getStructs("Coordinators").get(0);
            found[0] = answer.getInt16("ErrorCode") == Errors.NONE.code() ? answer.getInt32("NodeId") : -1;
            return found[0] >= 0;
        }, "node " + node + " to name the coordinator of " + GROUP);
        return found[0];
    }

    private Struct call(int node, ApiKey api, int version, Struct request) {
        try (NodeChannel channel = new NodeChannel("localhost", cluster.node(node).boundPort("PLAINTEXT"),
                "group-configs-test", 5_000)) {
            return channel.send(api, (short) version, request);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
