package io.minibroker.broker.group;

import io.minibroker.broker.config.BrokerConfig;
import io.minibroker.broker.topic.TopicRegistry;
import io.minibroker.broker.server.Broker;
import io.minibroker.broker.server.TestBrokers;
import io.minibroker.protocol.error.Errors;
import io.minibroker.protocol.message.ApiKey;
import io.minibroker.protocol.message.view.AlterShareGroupOffsetsRequestView;
import io.minibroker.protocol.message.view.AlterShareGroupOffsetsResponseView;
import io.minibroker.protocol.message.view.ApiVersionsRequestView;
import io.minibroker.protocol.message.view.ApiVersionsResponseView;
import io.minibroker.protocol.message.view.ConsumerGroupDescribeRequestView;
import io.minibroker.protocol.message.view.ConsumerGroupHeartbeatRequestView;
import io.minibroker.protocol.message.view.ConsumerGroupHeartbeatResponseView;
import io.minibroker.protocol.message.view.ConsumerGroupDescribeResponseView;
import io.minibroker.protocol.message.view.CreateTopicsRequestView;
import io.minibroker.protocol.message.view.DeleteGroupsRequestView;
import io.minibroker.protocol.message.view.DeleteGroupsResponseView;
import io.minibroker.protocol.message.view.DescribeGroupsRequestView;
import io.minibroker.protocol.message.view.DescribeGroupsResponseView;
import io.minibroker.protocol.message.view.ListGroupsRequestView;
import io.minibroker.protocol.message.view.ListGroupsResponseView;
import io.minibroker.protocol.message.view.MetadataRequestView;
import io.minibroker.protocol.message.view.OffsetCommitRequestView;
import io.minibroker.protocol.message.view.OffsetCommitResponseView;
import io.minibroker.protocol.message.view.OffsetFetchRequestView;
import io.minibroker.protocol.message.view.OffsetFetchResponseView;
import io.minibroker.protocol.message.view.ShareGroupDescribeRequestView;
import io.minibroker.protocol.message.view.ShareGroupDescribeResponseView;
import io.minibroker.protocol.message.view.StreamsGroupDescribeRequestView;
import io.minibroker.protocol.message.view.StreamsGroupDescribeResponseView;
import io.minibroker.protocol.message.view.StreamsGroupHeartbeatRequestView;
import io.minibroker.protocol.message.view.StreamsGroupHeartbeatResponseView;
import io.minibroker.protocol.schema.Struct;
import io.minibroker.purgatory.time.ManualClock;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.AlterConfigOp;
import org.apache.kafka.clients.admin.ConfigEntry;
import org.apache.kafka.common.errors.InvalidConfigurationException;
import org.apache.kafka.common.acl.AccessControlEntry;
import org.apache.kafka.common.acl.AclBinding;
import org.apache.kafka.common.acl.AclOperation;
import org.apache.kafka.common.acl.AclPermissionType;
import org.apache.kafka.common.config.ConfigResource;
import org.apache.kafka.common.resource.PatternType;
import org.apache.kafka.common.resource.ResourcePattern;
import org.apache.kafka.common.resource.ResourceType;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Streams groups (KIP-1071) on the wire, time driven by a ManualClock: the gate on
 * {@code group.coordinator.rebalance.protocols}, internal topics created by the broker, the task assignment and its
 * reconciliation (a task moves only once revoked), leaving, session expiry, Kafka's errors, the other group APIs, and
 * the group kept across a restart.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class StreamsGroupHeartbeatTest {

    private static final int SESSION_MS = 45_000;

    @TempDir
    Path logDir;
    private final ManualClock clock = new ManualClock();
    private Broker broker;
    private GroupWireClient client;

    private void start(Map<String, String> overrides) throws Exception {
        broker = TestBrokers.start(logDir, overrides, clock);
        client = new GroupWireClient(broker.boundPort("PLAINTEXT"));
        CreateTopicsRequestView create = new CreateTopicsRequestView().timeoutMs(10_000);
        create.addTopic().name("input").numPartitions(3).replicationFactor((short) 1);
        client.call(ApiKey.CREATE_TOPICS, 7, create.struct());
    }

    /** A new broker on the same log dir and clock, as a restarted node. */
    private void restart() throws Exception {
        client.close();
        broker.close();
        broker = TestBrokers.start(logDir, Map.of(), clock);
        client = new GroupWireClient(broker.boundPort("PLAINTEXT"));
    }

    @AfterEach
    void stop() throws Exception {
        if (client != null) {
            client.close();
        }
        if (broker != null) {
            broker.close();
        }
    }

    private StreamsGroupHeartbeatResponseView heartbeat(StreamsGroupHeartbeatRequestView request) throws IOException {
        return new StreamsGroupHeartbeatResponseView(client.call(ApiKey.STREAMS_GROUP_HEARTBEAT, 0, request.struct()));
    }

    /** A word count's topology: 0 reads "input" and writes the repartition topic, 1 counts into a store. */
    static StreamsGroupHeartbeatRequestView join(String memberId, String processId) {
        return join(memberId, processId, (short) 0);
    }

    /** The word count, its changelog asked with {@code changelogReplicas} replicas (0: the broker's default). */
    private static StreamsGroupHeartbeatRequestView join(String memberId, String processId, short changelogReplicas) {
        StreamsGroupHeartbeatRequestView request = new StreamsGroupHeartbeatRequestView().groupId("app")
                .memberId(memberId).memberEpoch(0).rebalanceTimeoutMs(30_000).processId(processId)
                .activeTasks(new ArrayList<>()).standbyTasks(new ArrayList<>()).warmupTasks(new ArrayList<>());
        StreamsGroupHeartbeatRequestView.Topology topology = new StreamsGroupHeartbeatRequestView.Topology().epoch(0);
        StreamsGroupHeartbeatRequestView.Subtopology split = topology.addSubtopology().subtopologyId("0")
                .sourceTopics(List.of("input")).repartitionSinkTopics(List.of("app-repartition"));
        StreamsGroupHeartbeatRequestView.Subtopology count = topology.addSubtopology().subtopologyId("1");
        count.addRepartitionSourceTopic().name("app-repartition");
        count.addStateChangelogTopic().name("app-changelog").replicationFactor(changelogReplicas).addTopicConfig().key("cleanup.policy").value("compact");
        assertThat(split.sourceTopics()).containsExactly("input");
        return request.topology(topology);
    }

    private static StreamsGroupHeartbeatRequestView beat(String memberId, int epoch) {
        return new StreamsGroupHeartbeatRequestView().groupId("app").memberId(memberId).memberEpoch(epoch);
    }

    /** A heartbeat saying the member holds exactly these active tasks. */
    private static StreamsGroupHeartbeatRequestView holding(String memberId, int epoch,
                                                            List<StreamsGroupHeartbeatResponseView.TaskIds> active) {
        StreamsGroupHeartbeatRequestView request = beat(memberId, epoch).standbyTasks(new ArrayList<>())
                .warmupTasks(new ArrayList<>()).activeTasks(new ArrayList<>());
        for (StreamsGroupHeartbeatResponseView.TaskIds ids : active) {
            request.addActiveTask().subtopologyId(ids.subtopologyId()).partitions(ids.partitions());
        }
        return request;
    }

    private static Set<String> tasks(List<StreamsGroupHeartbeatResponseView.TaskIds> ids) {
        Set<String> tasks = new TreeSet<>();
        for (StreamsGroupHeartbeatResponseView.TaskIds id : ids) {
            id.partitions().forEach(p -> tasks.add(id.subtopologyId() + "_" + p));
        }
        return tasks;
    }

    private StreamsGroupDescribeResponseView.DescribedGroup describe() throws IOException {
        StreamsGroupDescribeRequestView request = new StreamsGroupDescribeRequestView().groupIds(List.of("app"));
        return new StreamsGroupDescribeResponseView(client.call(ApiKey.STREAMS_GROUP_DESCRIBE, 0, request.struct()))
                .groups().get(0);
    }

    /** Heartbeats m1 until the broker has created the internal topics and the topology is ready. */
    private StreamsGroupHeartbeatResponseView untilReady(String memberId, int epoch) throws IOException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (true) {
            StreamsGroupHeartbeatResponseView response = heartbeat(beat(memberId, epoch));
            assertThat(response.errorCode()).isEqualTo(Errors.NONE.code());
            if (response.status().isEmpty()) {
                return response;
            }
            epoch = response.memberEpoch();
            assertThat(System.nanoTime()).isLessThan(deadline);
            Thread.onSpinWait();
        }
    }

    private void waitUntilMembers(int count) throws IOException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (describe().members().size() != count) {
            assertThat(System.nanoTime()).isLessThan(deadline);
            Thread.onSpinWait();
        }
    }

    @Test
    void offeredOnlyWhenTheRebalanceProtocolsNameStreams() throws Exception {
        start(Map.of("group.coordinator.rebalance.protocols", "classic,consumer"));
        ApiVersionsResponseView off = new ApiVersionsResponseView(
                client.call(ApiKey.API_VERSIONS, 3, new ApiVersionsRequestView().clientSoftwareName("t")
                        .clientSoftwareVersion("1").struct()));
        assertThat(off.apiKeys()).noneMatch(api -> api.apiKey() == ApiKey.STREAMS_GROUP_HEARTBEAT.id());
        assertThat(off.finalizedFeatures()).noneMatch(feature -> feature.name().equals("streams.version"));
        assertThat(off.apiKeys()).anyMatch(api -> api.apiKey() == ApiKey.CONSUMER_GROUP_HEARTBEAT.id());
        stop();
        start(Map.of("group.coordinator.rebalance.protocols", "classic"));
        ApiVersionsResponseView classicOnly = new ApiVersionsResponseView(
                client.call(ApiKey.API_VERSIONS, 3, new ApiVersionsRequestView().clientSoftwareName("t")
                        .clientSoftwareVersion("1").struct()));
        assertThat(classicOnly.apiKeys()).noneMatch(api -> api.apiKey() == ApiKey.CONSUMER_GROUP_HEARTBEAT.id());
        stop();
        client = null;
        broker = null;

        start(Map.of()); // Kafka's default names streams
        ApiVersionsResponseView on = new ApiVersionsResponseView(
                client.call(ApiKey.API_VERSIONS, 3, new ApiVersionsRequestView().clientSoftwareName("t")
                        .clientSoftwareVersion("1").struct()));
        assertThat(on.apiKeys()).anySatisfy(api -> {
            assertThat(api.apiKey()).isEqualTo(ApiKey.STREAMS_GROUP_HEARTBEAT.id());
            assertThat(api.maxVersion()).isEqualTo((short) 0);
        });
        assertThat(on.apiKeys()).anyMatch(api -> api.apiKey() == ApiKey.STREAMS_GROUP_DESCRIBE.id());
        assertThat(on.finalizedFeatures()).anySatisfy(feature -> {
            assertThat(feature.name()).isEqualTo("streams.version");
            assertThat(feature.maxVersionLevel()).isEqualTo((short) 1);
        });
    }

    @Test
    void theBrokerCreatesTheInternalTopicsThenAssignsEveryTask() throws Exception {
        start(Map.of());
        StreamsGroupHeartbeatResponseView joined = heartbeat(join("m1", "p1"));
        assertThat(joined.errorCode()).isEqualTo(Errors.NONE.code());
        assertThat(joined.status()).singleElement().satisfies(status -> {
            assertThat(status.statusCode()).isEqualTo(StreamsConfiguredTopology.MISSING_INTERNAL_TOPICS);
            assertThat(status.statusDetail()).isEqualTo("Internal topics are missing: app-changelog, app-repartition");
        });
        assertThat(joined.activeTasks()).isEmpty();
        // As Kafka 4.3.1 (KAFKA-20268): a new group is at epoch 1 and the join bumps it to 2.
        assertThat(joined.memberEpoch()).isEqualTo(2);

        try (Admin admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG,
                "localhost:" + broker.boundPort("PLAINTEXT")))) {
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
            while (!admin.listTopics().names().get().containsAll(List.of("app-changelog", "app-repartition"))) {
                assertThat(System.nanoTime()).isLessThan(deadline);
                Thread.onSpinWait();
            }
            // The next heartbeat finds both topics: one bump, to 3/3, as a Kafka 4.3.1 node answered a stateful
            // app's first instance (described alike on both brokers).
            StreamsGroupHeartbeatResponseView ready = heartbeat(beat("m1", joined.memberEpoch()));
            assertThat(ready.status()).isEmpty();
            assertThat(ready.memberEpoch()).isEqualTo(3);
            assertThat(tasks(ready.activeTasks())).containsExactly("0_0", "0_1", "0_2", "1_0", "1_1", "1_2");
            assertThat(describe()).extracting(group -> group.groupEpoch(), group -> group.assignmentEpoch())
                    .containsExactly(3, 3);
            assertThat(admin.describeTopics(List.of("app-repartition")).allTopicNames().get()
                    .get("app-repartition").partitions()).hasSize(3);
            ConfigResource changelog = new ConfigResource(ConfigResource.Type.TOPIC, "app-changelog");
            assertThat(admin.describeConfigs(List.of(changelog)).all().get().get(changelog)
                    .get("cleanup.policy").value()).isEqualTo("compact");
        }
        assertThat(describe().groupState()).isEqualTo("Stable");
    }

    @Test
    void aRefusedInternalTopicIsNamedInTheStatusForTwiceTheHeartbeatIntervalThenAskedForAgain() throws Exception {
        start(Map.of());
        // Three replicas on one node: the broker cannot create the changelog, as Kafka's controller cannot.
        StreamsGroupHeartbeatResponseView joined = heartbeat(join("m1", "p1", (short) 3));
        assertThat(joined.errorCode()).isEqualTo(Errors.NONE.code());
        String missing = "Internal topics are missing: app-changelog";
        String refused = missing + "; Creation failed: app-changelog (Unable to replicate the partition 3 time(s): "
                + "The target replication factor of 3 cannot be reached because only 1 broker(s) are registered.).";
        // The creation runs apart from the heartbeat: a later one names the refusal (Kafka's next heartbeat after its
        // controller answered), and the repartition topic, which could be created, is no longer missing.
        int epoch = untilStatus("m1", joined.memberEpoch(), refused);

        // Kept for twice the heartbeat interval (5 s by default), counted from the refusal: until then the members
        // are told, and the broker does not ask again.
        clock.advance(9_999);
        assertThat(statusOf(heartbeat(beat("m1", epoch)))).isEqualTo(refused);
        clock.advance(1);
        // Expired: this heartbeat asks again and is told only what is missing; the new refusal shows next.
        StreamsGroupHeartbeatResponseView retried = heartbeat(beat("m1", epoch));
        assertThat(statusOf(retried)).isIn(missing, refused);
        untilStatus("m1", retried.memberEpoch(), refused);
        try (Admin admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG,
                "localhost:" + broker.boundPort("PLAINTEXT")))) {
            assertThat(admin.listTopics().names().get()).contains("app-repartition").doesNotContain("app-changelog");
        }
    }

    private static String statusOf(StreamsGroupHeartbeatResponseView response) {
        assertThat(response.errorCode()).isEqualTo(Errors.NONE.code());
        assertThat(response.status()).singleElement().satisfies(status ->
                assertThat(status.statusCode()).isEqualTo(StreamsConfiguredTopology.MISSING_INTERNAL_TOPICS));
        return response.status().get(0).statusDetail();
    }

    /** Heartbeats until the status says {@code detail}; the member's epoch then. */
    private int untilStatus(String memberId, int epoch, String detail) throws IOException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (true) {
            StreamsGroupHeartbeatResponseView response = heartbeat(beat(memberId, epoch));
            epoch = response.memberEpoch();
            if (statusOf(response).equals(detail)) {
                return epoch;
            }
            assertThat(System.nanoTime()).isLessThan(deadline);
            Thread.onSpinWait();
        }
    }

    @Test
    void aTaskGoesToTheNewMemberOnlyOnceTheOldOneRevokedIt() throws Exception {
        start(Map.of());
        StreamsGroupHeartbeatResponseView m1 = untilReady("m1", heartbeat(join("m1", "p1")).memberEpoch());
        int epoch1 = m1.memberEpoch();

        StreamsGroupHeartbeatResponseView m2 = heartbeat(join("m2", "p2"));
        assertThat(m2.memberEpoch()).isEqualTo(epoch1 + 1);
        assertThat(m2.activeTasks()).isEmpty(); // all six are still m1's

        StreamsGroupHeartbeatResponseView revoke = heartbeat(holding("m1", epoch1, m1.activeTasks()));
        assertThat(revoke.memberEpoch()).isEqualTo(epoch1); // keeps its epoch until it has revoked
        assertThat(tasks(revoke.activeTasks())).hasSize(3);
        assertThat(describe().groupState()).isEqualTo("Reconciling");

        StreamsGroupHeartbeatResponseView stillWaiting = heartbeat(beat("m2", m2.memberEpoch()));
        assertThat(stillWaiting.activeTasks()).isNull(); // unchanged: nothing released yet

        StreamsGroupHeartbeatResponseView revoked = heartbeat(holding("m1", epoch1, revoke.activeTasks()));
        assertThat(revoked.memberEpoch()).isEqualTo(epoch1 + 1);

        StreamsGroupHeartbeatResponseView taken = heartbeat(beat("m2", m2.memberEpoch()));
        Set<String> m2Tasks = tasks(taken.activeTasks());
        assertThat(m2Tasks).hasSize(3).doesNotContainAnyElementsOf(tasks(revoke.activeTasks()));
        assertThat(describe().groupState()).isEqualTo("Stable");
    }

    /** OffsetCommit v9 of one partition, by a member at an epoch: its error. */
    private Errors commitAt(String memberId, int epoch, String topic, int partition) throws IOException {
        OffsetCommitRequestView commit = new OffsetCommitRequestView().groupId("app").memberId(memberId)
                .generationIdOrMemberEpoch(epoch);
        commit.addTopic().name(topic).addPartition().partitionIndex(partition).committedOffset(1);
        return Errors.forCode(new OffsetCommitResponseView(client.call(ApiKey.OFFSET_COMMIT, 9, commit.struct()))
                .topics().get(0).partitions().get(0).errorCode());
    }

    /** The topic a task's offsets are committed for: subtopology 0 reads "input", 1 the repartition topic. */
    private static String inputOf(String subtopologyId) {
        return subtopologyId.equals("0") ? "input" : "app-repartition";
    }

    /**
     * As Kafka 4.3.1's assignment epochs: a commit at an older member epoch counts for the tasks the member held
     * since then, and not for one it revoked, nor for one assigned to it later; a newer epoch never counts.
     */
    @Test
    void aCommitAtAnOlderEpochCountsOnlyForTasksHeldSinceThen() throws Exception {
        start(Map.of());
        StreamsGroupHeartbeatResponseView m1 = untilReady("m1", heartbeat(join("m1", "p1")).memberEpoch());
        int epoch1 = m1.memberEpoch();
        StreamsGroupHeartbeatResponseView m2 = heartbeat(join("m2", "p2"));
        StreamsGroupHeartbeatResponseView revoke = heartbeat(holding("m1", epoch1, m1.activeTasks()));
        StreamsGroupHeartbeatResponseView revoked = heartbeat(holding("m1", epoch1, revoke.activeTasks()));
        assertThat(revoked.memberEpoch()).isEqualTo(epoch1 + 1);
        StreamsGroupHeartbeatResponseView taken = heartbeat(beat("m2", m2.memberEpoch()));
        assertThat(tasks(taken.activeTasks())).hasSize(3);

        StreamsGroupHeartbeatResponseView.TaskIds kept = revoke.activeTasks().get(0);
        String keptTopic = inputOf(kept.subtopologyId());
        int keptPartition = kept.partitions().get(0);
        assertThat(commitAt("m1", epoch1, keptTopic, keptPartition)).as("held since epoch1").isEqualTo(Errors.NONE);
        assertThat(commitAt("m1", epoch1 + 2, keptTopic, keptPartition)).as("newer than the member's")
                .isEqualTo(Errors.STALE_MEMBER_EPOCH);
        StreamsGroupHeartbeatResponseView.TaskIds given = taken.activeTasks().get(0);
        assertThat(commitAt("m1", epoch1, inputOf(given.subtopologyId()), given.partitions().get(0)))
                .as("revoked by m1").isEqualTo(Errors.STALE_MEMBER_EPOCH);
        assertThat(commitAt("m2", epoch1, inputOf(given.subtopologyId()), given.partitions().get(0)))
                .as("assigned to m2 after epoch1").isEqualTo(Errors.STALE_MEMBER_EPOCH);
        assertThat(commitAt("m2", epoch1 + 1, inputOf(given.subtopologyId()), given.partitions().get(0)))
                .isEqualTo(Errors.NONE);

        restart(); // the epochs are kept in the current assignment records
        assertThat(commitAt("m1", epoch1, keptTopic, keptPartition)).isEqualTo(Errors.NONE);
        assertThat(commitAt("m2", epoch1, inputOf(given.subtopologyId()), given.partitions().get(0)))
                .isEqualTo(Errors.STALE_MEMBER_EPOCH);
    }

    /**
     * As Kafka 4.3.1: the epoch moves on when a member with an endpoint gets other tasks, and a member whose epoch
     * differs is sent every endpoint's partitions; the first member of a new group is told epoch 0.
     */
    @Test
    void theEndpointInformationEpochMovesWithTheTasksOfMembersWithEndpoints() throws Exception {
        start(Map.of());
        StreamsGroupHeartbeatRequestView first = join("m1", "p1")
                .userEndpoint(new StreamsGroupHeartbeatRequestView.Endpoint().host("h1").port(8080));
        StreamsGroupHeartbeatResponseView joined = heartbeat(first);
        assertThat(joined.endpointInformationEpoch()).as("a group this heartbeat created").isZero();
        assertThat(joined.partitionsByUserEndpoint()).singleElement().satisfies(endpoint ->
                assertThat(endpoint.userEndpoint().host()).isEqualTo("h1"));

        StreamsGroupHeartbeatResponseView ready = untilReady("m1", joined.memberEpoch());
        StreamsGroupHeartbeatResponseView tasks = heartbeat(beat("m1", ready.memberEpoch())
                .endpointInformationEpoch(0));
        assertThat(tasks.endpointInformationEpoch()).isPositive();
        assertThat(tasks.partitionsByUserEndpoint()).singleElement().satisfies(endpoint ->
                assertThat(endpoint.activePartitions()).isNotEmpty());
        StreamsGroupHeartbeatResponseView same = heartbeat(beat("m1", tasks.memberEpoch())
                .endpointInformationEpoch(tasks.endpointInformationEpoch()));
        assertThat(same.endpointInformationEpoch()).isEqualTo(tasks.endpointInformationEpoch());
        assertThat(same.partitionsByUserEndpoint()).as("known already").isNull();
    }

    @Test
    void aRestartKeepsTheGroupAndItsMembersCarryOnAtTheirEpochs() throws Exception {
        start(Map.of());
        StreamsGroupHeartbeatResponseView m1 = untilReady("m1", heartbeat(join("m1", "p1")).memberEpoch());
        StreamsGroupHeartbeatResponseView m2 = heartbeat(join("m2", "p2"));
        // m1 is asked to revoke half its tasks: the restart comes in the middle of the reconciliation.
        StreamsGroupHeartbeatResponseView revoke = heartbeat(holding("m1", m1.memberEpoch(), m1.activeTasks()));
        assertThat(tasks(revoke.activeTasks())).hasSize(3);
        StreamsGroupDescribeResponseView.DescribedGroup before = describe();
        assertThat(before.groupState()).isEqualTo("Reconciling");

        restart();

        StreamsGroupDescribeResponseView.DescribedGroup after = describe();
        assertThat(after.groupState()).isEqualTo("Reconciling");
        assertThat(after.groupEpoch()).isEqualTo(before.groupEpoch());
        assertThat(after.assignmentEpoch()).isEqualTo(before.assignmentEpoch());
        assertThat(after.topology().epoch()).isEqualTo(0);
        assertThat(after.topology().subtopologies()).hasSize(2);
        assertThat(after.members()).extracting(StreamsGroupDescribeResponseView.Member::memberId)
                .containsExactlyInAnyOrder("m1", "m2");

        StreamsGroupHeartbeatResponseView revoked = heartbeat(holding("m1", m1.memberEpoch(), revoke.activeTasks()));
        assertThat(revoked.errorCode()).isEqualTo(Errors.NONE.code());
        assertThat(revoked.memberEpoch()).isEqualTo(before.groupEpoch());
        StreamsGroupHeartbeatResponseView taken = heartbeat(beat("m2", m2.memberEpoch()));
        assertThat(taken.errorCode()).isEqualTo(Errors.NONE.code());
        assertThat(tasks(taken.activeTasks())).hasSize(3).doesNotContainAnyElementsOf(tasks(revoke.activeTasks()));
        StreamsGroupDescribeResponseView.DescribedGroup stable = describe();
        assertThat(stable.groupState()).isEqualTo("Stable");
        assertThat(stable.groupEpoch()).as("no new group epoch").isEqualTo(before.groupEpoch());

        // The members' sessions started afresh on load: one silent past its timeout is fenced as before.
        clock.advance(SESSION_MS - 1000);
        heartbeat(beat("m1", revoked.memberEpoch()));
        clock.advance(1000);
        waitUntilMembers(1);
    }

    /**
     * The input topic deleted and created again under its name, with its partition count, while the broker was down
     * (its topics changed on disk, as a cluster's topics change while the group's coordinator moves): the metadata
     * hash in the group's record is not the topics' at the first heartbeat after the load, which bumps the epoch, as
     * Kafka's. Before, the load took the topics as they were then, and the counts it compared had not changed.
     */
    @Test
    void anInputTopicCreatedAgainWhileTheBrokerWasDownMovesTheEpochAfterTheLoad() throws Exception {
        start(Map.of());
        StreamsGroupHeartbeatResponseView m1 = untilReady("m1", heartbeat(join("m1", "p1")).memberEpoch());
        int epoch = describe().groupEpoch();
        client.close();
        broker.close();
        try (TopicRegistry topics = TopicRegistry.open(BrokerConfig.of(Map.of("log.dirs", logDir.toString())),
                Clock.systemUTC())) {
            assertThat(topics.delete("input")).isEqualTo(Errors.NONE);
            assertThat(topics.create("input", 3, 1, Map.of(), false).error()).isEqualTo(Errors.NONE);
        }
        broker = TestBrokers.start(logDir, Map.of(), clock);
        client = new GroupWireClient(broker.boundPort("PLAINTEXT"));
        assertThat(describe().groupEpoch()).as("loaded as written").isEqualTo(epoch);

        StreamsGroupHeartbeatResponseView after = heartbeat(beat("m1", m1.memberEpoch()));
        assertThat(after.errorCode()).isEqualTo(Errors.NONE.code());
        assertThat(describe().groupEpoch()).as("the stored hash is not the topics' now").isEqualTo(epoch + 1);
        assertThat(after.memberEpoch()).isEqualTo(epoch + 1);
    }

    @Test
    void aDeletedStreamsGroupStaysDeletedAfterARestart() throws Exception {
        start(Map.of());
        untilReady("m1", heartbeat(join("m1", "p1")).memberEpoch());
        assertThat(heartbeat(beat("m1", -1)).errorCode()).isEqualTo(Errors.NONE.code());
        restart();
        assertThat(describe().groupState()).isEqualTo("Empty");
        DeleteGroupsRequestView delete = new DeleteGroupsRequestView().groupsNames(List.of("app"));
        assertThat(new DeleteGroupsResponseView(client.call(ApiKey.DELETE_GROUPS, 2, delete.struct())).results()
                .get(0).errorCode()).isEqualTo(Errors.NONE.code());
        restart();
        assertThat(describe().errorMessage()).isEqualTo("Group app not found.");
    }

    private Struct classicJoin(String memberId) throws IOException {
        return client.call(ApiKey.JOIN_GROUP, 9,
                GroupProtocolErrorsTest.joinRequest("app", memberId, 10_000, new byte[0]));
    }

    /** The committed offset of input-0 as an admin's OffsetFetch (no member) reads it. */
    private long committedOffset() throws IOException {
        OffsetFetchRequestView fetch = new OffsetFetchRequestView();
        fetch.addGroup().groupId("app").topics(null);
        OffsetFetchResponseView.OffsetFetchResponseGroup group = new OffsetFetchResponseView(client.call(ApiKey.OFFSET_FETCH, 9,
                fetch.struct())).groups().get(0);
        assertThat(group.errorCode()).isEqualTo(Errors.NONE.code());
        return group.topics().get(0).partitions().get(0).committedOffset();
    }

    private List<ListGroupsResponseView.ListedGroup> allGroups() throws IOException {
        return new ListGroupsResponseView(client.call(ApiKey.LIST_GROUPS, 5, new ListGroupsRequestView()
                .typesFilter(List.of()).struct())).groups();
    }

    /** An app on group.protocol=classic: a member joins, syncs and commits offset 5 of input-0; its id. */
    private String classicMemberCommitted() throws IOException {
        String memberId = classicJoin("").getString("MemberId");
        Struct joined = classicJoin(memberId);
        assertThat(joined.getInt16("ErrorCode")).isEqualTo(Errors.NONE.code());
        Struct sync = ApiKey.SYNC_GROUP.request().newMessage().set("GroupId", "app")
                .set("GenerationId", joined.getInt32("GenerationId")).set("MemberId", memberId)
                .set("ProtocolType", "consumer").set("ProtocolName", "range");
        sync.addElement("Assignments").set("MemberId", memberId).set("Assignment", new byte[0]);
        assertThat(client.call(ApiKey.SYNC_GROUP, 5, sync).getInt16("ErrorCode")).isEqualTo(Errors.NONE.code());
        OffsetCommitRequestView commit = new OffsetCommitRequestView().groupId("app").memberId(memberId)
                .generationIdOrMemberEpoch(joined.getInt32("GenerationId"));
        commit.addTopic().name("input").addPartition().partitionIndex(0).committedOffset(5);
        assertThat(new OffsetCommitResponseView(client.call(ApiKey.OFFSET_COMMIT, 9, commit.struct())).topics()
                .get(0).partitions().get(0).errorCode()).isEqualTo(Errors.NONE.code());
        return memberId;
    }

    private void classicLeave(String memberId) throws IOException {
        Struct leave = ApiKey.LEAVE_GROUP.request().newMessage().set("GroupId", "app");
        leave.addElement("Members").set("MemberId", memberId);
        assertThat(client.call(ApiKey.LEAVE_GROUP, 4, leave).getInt16("ErrorCode")).isEqualTo(Errors.NONE.code());
    }

    @Test
    void anEmptyClassicGroupGivesItsIdToAStreamsGroupWhichKeepsItsCommits() throws Exception {
        start(Map.of("group.initial.rebalance.delay.ms", "0"));
        // An app on group.protocol=classic: a member joins, syncs, commits and stays.
        String memberId = classicMemberCommitted();

        StreamsGroupHeartbeatResponseView whileClassicMembers = heartbeat(join("m1", "p1"));
        assertThat(whileClassicMembers.errorCode()).isEqualTo(Errors.GROUP_ID_NOT_FOUND.code());
        assertThat(whileClassicMembers.errorMessage()).isEqualTo("Group app is not a streams group.");

        // The app stops (its member leaves) and comes back with group.protocol=streams.
        classicLeave(memberId);
        StreamsGroupHeartbeatResponseView m1 = heartbeat(join("m1", "p1"));
        assertThat(m1.errorCode()).isEqualTo(Errors.NONE.code());
        untilReady("m1", m1.memberEpoch());
        assertThat(allGroups()).singleElement().satisfies(group -> {
            assertThat(group.groupId()).isEqualTo("app");
            assertThat(group.groupType()).isEqualTo("streams");
        });
        assertThat(committedOffset()).isEqualTo(5);

        // The classic group's metadata went with the streams group's first write: a restart brings back only it.
        restart();
        assertThat(allGroups()).singleElement().satisfies(group -> assertThat(group.groupType())
                .isEqualTo("streams"));
        assertThat(describe().members()).extracting(StreamsGroupDescribeResponseView.Member::memberId)
                .containsExactly("m1");
        assertThat(committedOffset()).isEqualTo(5);
    }

    /**
     * Kafka's getOrCreateStreamsGroup only adds the classic group's tombstone to the join's records, which a refused
     * join never writes: the empty classic group stays, in memory as in the log, until a join is accepted.
     */
    @Test
    void aRefusedStreamsJoinLeavesTheEmptyClassicGroupItWouldReplace() throws Exception {
        start(Map.of("group.initial.rebalance.delay.ms", "0"));
        classicLeave(classicMemberCommitted());

        StreamsGroupHeartbeatResponseView staticMember = heartbeat(join("m1", "p1").instanceId("i1"));
        assertThat(staticMember.errorCode()).isEqualTo(Errors.UNKNOWN_SERVER_ERROR.code());
        assertThat(allGroups()).as("after a static member's refusal").singleElement().satisfies(group -> {
            assertThat(group.groupType()).isEqualTo("classic");
            assertThat(group.groupState()).isEqualTo("Empty");
        });
        StreamsGroupHeartbeatRequestView unsized = join("m1", "p1");
        unsized.topology().subtopologies().get(0).repartitionSinkTopics(List.of()); // app-repartition: no writer
        StreamsGroupHeartbeatResponseView invalid = heartbeat(unsized);
        assertThat(invalid.errorCode()).isEqualTo(Errors.STREAMS_INVALID_TOPOLOGY.code());
        assertThat(allGroups()).as("after an invalid topology's refusal").singleElement().satisfies(group -> {
            assertThat(group.groupType()).isEqualTo("classic");
            assertThat(group.groupState()).isEqualTo("Empty");
        });
        assertThat(committedOffset()).isEqualTo(5);

        assertThat(heartbeat(join("m1", "p1")).errorCode()).isEqualTo(Errors.NONE.code());
        assertThat(allGroups()).singleElement().satisfies(group -> assertThat(group.groupType())
                .isEqualTo("streams"));
        restart();
        assertThat(allGroups()).singleElement().satisfies(group -> assertThat(group.groupType())
                .isEqualTo("streams"));
        assertThat(committedOffset()).isEqualTo(5);
    }

    @Test
    void anEmptyStreamsGroupGivesItsIdToAClassicJoinAndNeverToAConsumerGroupHeartbeat() throws Exception {
        start(Map.of("group.initial.rebalance.delay.ms", "0"));
        int epoch = untilReady("m1", heartbeat(join("m1", "p1")).memberEpoch()).memberEpoch();
        OffsetCommitRequestView commit = new OffsetCommitRequestView().groupId("app").memberId("m1")
                .generationIdOrMemberEpoch(epoch);
        commit.addTopic().name("input").addPartition().partitionIndex(0).committedOffset(7);
        assertThat(new OffsetCommitResponseView(client.call(ApiKey.OFFSET_COMMIT, 9, commit.struct())).topics()
                .get(0).partitions().get(0).errorCode()).isEqualTo(Errors.NONE.code());
        assertThat(classicJoin("").getInt16("ErrorCode")).as("a streams group with members")
                .isEqualTo(Errors.INCONSISTENT_GROUP_PROTOCOL.code());

        heartbeat(beat("m1", -1));
        ConsumerGroupHeartbeatResponseView consumer = new ConsumerGroupHeartbeatResponseView(client.call(
                ApiKey.CONSUMER_GROUP_HEARTBEAT, 1, new ConsumerGroupHeartbeatRequestView().groupId("app")
                        .memberId("c1").memberEpoch(0).rebalanceTimeoutMs(30_000)
                        .subscribedTopicNames(List.of("input")).topicPartitions(List.of()).struct()));
        assertThat(consumer.errorCode()).as("empty, still not a consumer group's")
                .isEqualTo(Errors.GROUP_ID_NOT_FOUND.code());
        assertThat(consumer.errorMessage()).isEqualTo("Group app is not a consumer group.");

        Struct required = classicJoin("");
        assertThat(required.getInt16("ErrorCode")).isEqualTo(Errors.MEMBER_ID_REQUIRED.code());
        Struct joined = classicJoin(required.getString("MemberId"));
        assertThat(joined.getInt16("ErrorCode")).isEqualTo(Errors.NONE.code());
        assertThat(describe().errorMessage()).isEqualTo("Group app is not a streams group.");
        assertThat(committedOffset()).isEqualTo(7);

        // The streams group's records were tombstoned: a restart does not bring it back beside the classic one.
        restart();
        assertThat(allGroups()).singleElement().satisfies(group -> assertThat(group.groupType())
                .isEqualTo("classic"));
        assertThat(committedOffset()).isEqualTo(7);
    }

    @Test
    void aLeaversAndASilentMembersTasksGoToTheOthers() throws Exception {
        start(Map.of());
        int epoch1 = untilReady("m1", heartbeat(join("m1", "p1")).memberEpoch()).memberEpoch();
        heartbeat(join("m2", "p2"));
        clock.advance(SESSION_MS - 1000);
        StreamsGroupHeartbeatResponseView m1 = heartbeat(beat("m1", epoch1));
        assertThat(m1.errorCode()).isEqualTo(Errors.NONE.code());
        clock.advance(1000); // m2's session runs out, not m1's
        waitUntilMembers(1);
        StreamsGroupHeartbeatResponseView alone = heartbeat(holding("m1", m1.memberEpoch(), m1.activeTasks()));
        assertThat(tasks(alone.activeTasks())).hasSize(6);
        assertThat(heartbeat(beat("m2", 3)).errorCode()).isEqualTo(Errors.UNKNOWN_MEMBER_ID.code());

        StreamsGroupHeartbeatResponseView left = heartbeat(beat("m1", -1));
        assertThat(left.memberEpoch()).isEqualTo(-1);
        assertThat(describe().groupState()).isEqualTo("Empty");
    }

    @Test
    void kafkasErrorsAndStatuses() throws Exception {
        start(Map.of());
        assertThat(heartbeat(join("m1", "p1").topology(null)).errorMessage())
                .isEqualTo("Topology must be non-null when (re-)joining.");
        assertThat(heartbeat(join("m1", "p1").rebalanceTimeoutMs(-1)).errorMessage())
                .isEqualTo("RebalanceTimeoutMs must be provided in first request.");
        assertThat(heartbeat(beat("m1", 1)).errorMessage()).isEqualTo("Streams group app not found.");
        assertThat(heartbeat(beat("m1", -3)).errorMessage())
                .isEqualTo("MemberEpoch is -3, but must be greater than or equal to -2.");

        StreamsGroupHeartbeatRequestView missingSource = join("m1", "p1");
        missingSource.topology().subtopologies().get(0).sourceTopics(List.of("absent"));
        StreamsGroupHeartbeatResponseView missing = heartbeat(missingSource);
        assertThat(missing.status()).singleElement().satisfies(status -> {
            assertThat(status.statusCode()).isEqualTo(StreamsConfiguredTopology.MISSING_SOURCE_TOPICS);
            assertThat(status.statusDetail()).isEqualTo("Source topics absent are missing.");
        });
        assertThat(heartbeat(join("m2", "p2")).errorMessage()).isEqualTo("Topology updates are not supported yet.");
        assertThat(heartbeat(beat("m1", missing.memberEpoch() + 1)).errorCode())
                .isEqualTo(Errors.FENCED_MEMBER_EPOCH.code());
    }

    @Test
    void theOtherGroupApisKnowStreamsGroups() throws Exception {
        start(Map.of());
        int epoch = untilReady("m1", heartbeat(join("m1", "p1")).memberEpoch()).memberEpoch();

        ListGroupsResponseView listed = new ListGroupsResponseView(client.call(ApiKey.LIST_GROUPS, 5,
                new ListGroupsRequestView().typesFilter(List.of("streams")).struct()));
        assertThat(listed.groups()).singleElement().satisfies(group -> {
            assertThat(group.groupId()).isEqualTo("app");
            assertThat(group.groupType()).isEqualTo("streams");
            assertThat(group.groupState()).isEqualTo("Stable");
        });
        DescribeGroupsResponseView.DescribedGroup classic = new DescribeGroupsResponseView(client.call(
                ApiKey.DESCRIBE_GROUPS, 6, new DescribeGroupsRequestView().groups(List.of("app")).struct()))
                .groups().get(0);
        assertThat(classic.errorMessage()).isEqualTo("Group app is not a classic group.");
        ConsumerGroupDescribeResponseView.DescribedGroup asConsumer = new ConsumerGroupDescribeResponseView(
                client.call(ApiKey.CONSUMER_GROUP_DESCRIBE, 0, new ConsumerGroupDescribeRequestView()
                        .groupIds(List.of("app")).struct())).groups().get(0);
        assertThat(asConsumer.errorMessage()).isEqualTo("Group app is not a consumer group.");
        ShareGroupDescribeResponseView.DescribedGroup asShare = new ShareGroupDescribeResponseView(client.call(
                ApiKey.SHARE_GROUP_DESCRIBE, 1, new ShareGroupDescribeRequestView().groupIds(List.of("app"))
                        .struct())).groups().get(0);
        assertThat(asShare.errorMessage()).isEqualTo("Group app is not a share group.");
        AlterShareGroupOffsetsRequestView alterAsShare = new AlterShareGroupOffsetsRequestView().groupId("app");
        alterAsShare.addTopic().topicName("input").addPartition().partitionIndex(0).startOffset(0);
        AlterShareGroupOffsetsResponseView alteredAsShare = new AlterShareGroupOffsetsResponseView(client.call(
                ApiKey.ALTER_SHARE_GROUP_OFFSETS, 0, alterAsShare.struct()));
        assertThat(alteredAsShare.errorCode()).isEqualTo(Errors.GROUP_ID_NOT_FOUND.code());
        assertThat(alteredAsShare.errorMessage()).isEqualTo("Group app is not a share group.");
        assertThat(new ListGroupsResponseView(client.call(ApiKey.LIST_GROUPS, 5, new ListGroupsRequestView()
                .typesFilter(List.of()).struct())).groups()).as("one group of that id").hasSize(1);

        OffsetCommitRequestView commit = new OffsetCommitRequestView().groupId("app").memberId("m1")
                .generationIdOrMemberEpoch(epoch - 1);
        commit.addTopic().name("input").addPartition().partitionIndex(0).committedOffset(5);
        OffsetCommitResponseView stale = new OffsetCommitResponseView(client.call(ApiKey.OFFSET_COMMIT, 9,
                commit.struct()));
        assertThat(stale.topics().get(0).partitions().get(0).errorCode())
                .isEqualTo(Errors.STALE_MEMBER_EPOCH.code());
        commit.generationIdOrMemberEpoch(epoch);
        OffsetCommitResponseView ok = new OffsetCommitResponseView(client.call(ApiKey.OFFSET_COMMIT, 9,
                commit.struct()));
        assertThat(ok.topics().get(0).partitions().get(0).errorCode()).isEqualTo(Errors.NONE.code());

        OffsetFetchRequestView fetch = new OffsetFetchRequestView();
        fetch.addGroup().groupId("app").memberId("m1").memberEpoch(epoch - 1).topics(null);
        assertThat(new OffsetFetchResponseView(client.call(ApiKey.OFFSET_FETCH, 9, fetch.struct())).groups().get(0)
                .errorCode()).isEqualTo(Errors.STALE_MEMBER_EPOCH.code());

        DeleteGroupsRequestView delete = new DeleteGroupsRequestView().groupsNames(List.of("app"));
        assertThat(new DeleteGroupsResponseView(client.call(ApiKey.DELETE_GROUPS, 2, delete.struct())).results()
                .get(0).errorCode()).isEqualTo(Errors.NON_EMPTY_GROUP.code());

        StreamsGroupDescribeResponseView.DescribedGroup described = describe();
        assertThat(described.topology().subtopologies()).hasSize(2);
        assertThat(described.members()).singleElement().satisfies(member -> {
            assertThat(member.processId()).isEqualTo("p1");
            assertThat(member.assignment().activeTasks()).hasSize(2);
        });

        heartbeat(beat("m1", -1));
        assertThat(new DeleteGroupsResponseView(client.call(ApiKey.DELETE_GROUPS, 2, delete.struct())).results()
                .get(0).errorCode()).isEqualTo(Errors.NONE.code());
        assertThat(describe().errorMessage()).isEqualTo("Group app not found.");
    }

    @Test
    void aMemberThatDoesNotRevokeWithinItsRebalanceTimeoutIsFenced() throws Exception {
        start(Map.of());
        int epoch1 = untilReady("m1", heartbeat(join("m1", "p1").rebalanceTimeoutMs(5_000)).memberEpoch())
                .memberEpoch();
        heartbeat(join("m2", "p2"));
        StreamsGroupHeartbeatResponseView revoke = heartbeat(beat("m1", epoch1));
        assertThat(tasks(revoke.activeTasks())).hasSize(3); // asked to give up the other three
        clock.advance(4_999);
        heartbeat(beat("m2", epoch1 + 1)); // keeps m2's session going; m1 has not revoked
        assertThat(describe().members()).hasSize(2);
        clock.advance(1);
        waitUntilMembers(1);
        assertThat(heartbeat(beat("m1", epoch1)).errorCode()).isEqualTo(Errors.UNKNOWN_MEMBER_ID.code());
    }

    @Test
    void standbyReplicasGoToTheOtherProcess() throws Exception {
        Map<String, String> overrides = new java.util.HashMap<>();
        overrides.put("group.streams.num.standby.replicas", "1");
        start(overrides);
        int epoch1 = untilReady("m1", heartbeat(join("m1", "p1")).memberEpoch()).memberEpoch();
        StreamsGroupHeartbeatResponseView m2 = heartbeat(join("m2", "p2"));
        StreamsGroupHeartbeatResponseView m1 = heartbeat(holding("m1", epoch1, heartbeat(beat("m1", epoch1))
                .activeTasks()));
        assertThat(tasks(m1.activeTasks())).hasSize(3);
        StreamsGroupHeartbeatResponseView m2Now = heartbeat(beat("m2", m2.memberEpoch()));
        assertThat(tasks(m2Now.activeTasks())).hasSize(3);
        // Each process's standbys are the other's active tasks.
        assertThat(tasks(m2Now.standbyTasks())).isEqualTo(tasks(m1.activeTasks()));
        StreamsGroupDescribeResponseView.DescribedGroup described = describe();
        assertThat(described.members()).allSatisfy(member ->
                assertThat(member.targetAssignment().standbyTasks()).isNotEmpty());
    }

    @Test
    void aMemberNeedsReadOnTheGroupDescribeOnItsTopologysTopicsAndCreateForItsInternalTopics() throws Exception {
        Map<String, String> overrides = new java.util.HashMap<>();
        overrides.put("authorizer.class.name", "org.apache.kafka.metadata.authorizer.StandardAuthorizer");
        overrides.put("allow.everyone.if.no.acl.found", "true");
        start(overrides);
        try (Admin admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG,
                "localhost:" + broker.boundPort("PLAINTEXT")))) {
            AclBinding denyGroup = new AclBinding(new ResourcePattern(ResourceType.GROUP, "app", PatternType.LITERAL),
                    new AccessControlEntry("User:ANONYMOUS", "*", AclOperation.READ, AclPermissionType.DENY));
            admin.createAcls(List.of(denyGroup)).all().get();
            assertThat(heartbeat(join("m1", "p1")).errorCode()).isEqualTo(Errors.GROUP_AUTHORIZATION_FAILED.code());
            admin.deleteAcls(List.of(denyGroup.toFilter())).all().get();

            AclBinding denyInput = new AclBinding(new ResourcePattern(ResourceType.TOPIC, "input",
                    PatternType.LITERAL), new AccessControlEntry("User:ANONYMOUS", "*", AclOperation.DESCRIBE,
                    AclPermissionType.DENY));
            admin.createAcls(List.of(denyInput)).all().get();
            assertThat(heartbeat(join("m1", "p1")).errorCode()).isEqualTo(Errors.TOPIC_AUTHORIZATION_FAILED.code());
            admin.deleteAcls(List.of(denyInput.toFilter())).all().get();

            AclBinding denyCreate = new AclBinding(new ResourcePattern(ResourceType.TOPIC, "app-changelog",
                    PatternType.LITERAL), new AccessControlEntry("User:ANONYMOUS", "*", AclOperation.CREATE,
                    AclPermissionType.DENY));
            // With an ACL on the topic nothing else on it is allowed by default any more: ALL allowed, CREATE denied.
            AclBinding allowAll = new AclBinding(denyCreate.pattern(), new AccessControlEntry("User:ANONYMOUS", "*",
                    AclOperation.ALL, AclPermissionType.ALLOW));
            // CREATE on the cluster would allow any topic: denied there too (everything else still allowed).
            ResourcePattern cluster = new ResourcePattern(ResourceType.CLUSTER, "kafka-cluster", PatternType.LITERAL);
            admin.createAcls(List.of(allowAll, denyCreate,
                    new AclBinding(cluster, new AccessControlEntry("User:ANONYMOUS", "*", AclOperation.ALL,
                            AclPermissionType.ALLOW)),
                    new AclBinding(cluster, new AccessControlEntry("User:ANONYMOUS", "*", AclOperation.CREATE,
                            AclPermissionType.DENY)))).all().get();
            StreamsGroupHeartbeatResponseView joined = heartbeat(join("m1", "p1"));
            assertThat(joined.status()).singleElement().satisfies(status -> assertThat(status.statusDetail())
                    .isEqualTo("Internal topics are missing: app-changelog, app-repartition; Unauthorized to CREATE "
                            + "on topics app-changelog."));
            // As Kafka's KafkaApis: one topic the member may not create, and none is created, the repartition topic
            // neither. A Metadata auto-creation, done on the single node's one topic-creation thread after any
            // creation asked before it, shows that none was asked.
            MetadataRequestView probe = new MetadataRequestView().allowAutoTopicCreation(true);
            probe.addTopic().name("probe");
            client.call(ApiKey.METADATA, 12, probe.struct());
            assertThat(admin.listTopics().names().get()).contains("probe")
                    .doesNotContain("app-repartition", "app-changelog");
            assertThat(heartbeat(beat("m1", joined.memberEpoch())).status()).singleElement()
                    .satisfies(status -> assertThat(status.statusDetail()).isEqualTo(
                            "Internal topics are missing: app-changelog, app-repartition; Unauthorized to CREATE on "
                                    + "topics app-changelog."));
        }
    }

    @Test
    void theGroupConfigForStandbysTriggersARebalance() throws Exception {
        start(Map.of());
        int epoch1 = untilReady("m1", heartbeat(join("m1", "p1")).memberEpoch()).memberEpoch();
        StreamsGroupHeartbeatResponseView m2 = heartbeat(join("m2", "p2"));
        List<StreamsGroupHeartbeatResponseView.TaskIds> kept = heartbeat(beat("m1", epoch1)).activeTasks();
        StreamsGroupHeartbeatResponseView m1 = heartbeat(holding("m1", epoch1, kept));
        int settled = heartbeat(beat("m2", m2.memberEpoch())).memberEpoch();
        assertThat(describe().members()).allSatisfy(member ->
                assertThat(member.targetAssignment().standbyTasks()).isEmpty());

        ConfigResource group = new ConfigResource(ConfigResource.Type.GROUP, "app");
        try (Admin admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG,
                "localhost:" + broker.boundPort("PLAINTEXT")))) {
            assertThatThrownBy(() -> admin.incrementalAlterConfigs(Map.of(group, List.of(new AlterConfigOp(
                    new ConfigEntry("streams.num.standby.replicas", "3"), AlterConfigOp.OpType.SET))))
                    .all().get()).hasCauseInstanceOf(InvalidConfigurationException.class).hasMessageContaining(
                            "streams.num.standby.replicas must be less than or equal to "
                                    + "group.streams.max.standby.replicas");
            admin.incrementalAlterConfigs(Map.of(group, List.of(new AlterConfigOp(
                    new ConfigEntry("streams.num.standby.replicas", "1"), AlterConfigOp.OpType.SET)))).all().get();
        }
        StreamsGroupHeartbeatResponseView rebalanced = heartbeat(holding("m1", m1.memberEpoch(), kept));
        assertThat(rebalanced.memberEpoch()).isEqualTo(settled + 1);
        assertThat(tasks(rebalanced.standbyTasks())).hasSize(3);
    }
}
