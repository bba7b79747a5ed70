package io.minibroker.broker.group;

import io.minibroker.broker.server.Broker;
import io.minibroker.broker.server.TestBrokers;
import io.minibroker.protocol.error.Errors;
import io.minibroker.protocol.message.ApiKey;
import io.minibroker.protocol.message.view.FindCoordinatorRequestView;
import io.minibroker.protocol.message.view.FindCoordinatorResponseView;
import io.minibroker.protocol.message.view.MetadataRequestView;
import io.minibroker.protocol.message.view.MetadataResponseView;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.Config;
import org.apache.kafka.clients.admin.ListTopicsOptions;
import org.apache.kafka.common.config.ConfigResource;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import static io.minibroker.broker.server.Eventually.await;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * FindCoordinator on a fresh single node, as Kafka's KafkaApis.getCoordinator answers it: the first request finds no
 * {@code __consumer_offsets}, has it created and is answered COORDINATOR_NOT_AVAILABLE (no node, host or port);
 * the topic then exists, internal, with {@code offsets.topic.num.partitions} partitions, one replica and the
 * configs Kafka gives it, and the next request finds this node.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class FindCoordinatorOffsetsTopicTest {

    private static final int OFFSETS_PARTITIONS = 3;

    @TempDir
    Path logDir;
    private Broker broker;

    @AfterEach
    void stop() throws Exception {
        if (broker != null) {
            broker.close();
        }
    }

    @ParameterizedTest(name = "FindCoordinator v{0}")
    @ValueSource(ints = {3, 4})
    void theFirstLookupCreatesTheOffsetsTopicAndIsAnsweredCoordinatorNotAvailable(int version) throws Exception {
        // Three replicas asked for: one node keeps one, rather than never having a coordinator.
        broker = TestBrokers.start(logDir, Map.of("offsets.topic.num.partitions", Integer.toString(OFFSETS_PARTITIONS),
                "offsets.topic.replication.factor", "3", "num.partitions", "5"));
        try (GroupWireClient client = new GroupWireClient(broker.boundPort("PLAINTEXT"))) {
            assertThat(offsetsTopic(client).errorCode()).as("nothing created before the lookup")
                    .isEqualTo(Errors.UNKNOWN_TOPIC_OR_PARTITION.code());

            FoundCoordinator first = findCoordinator(client, version, "first-group");
            assertThat(first).isEqualTo(new FoundCoordinator(Errors.COORDINATOR_NOT_AVAILABLE, -1, "", -1));

            await(() -> offsetsTopic(client).errorCode() == Errors.NONE.code(), "__consumer_offsets to exist");
            MetadataResponseView metadata = metadata(client, OffsetsTopic.NAME);
            MetadataResponseView.MetadataResponseTopic topic = metadata.topics().get(0);
            assertThat(topic.isInternal()).isTrue();
            assertThat(topic.partitions()).as("offsets.topic.num.partitions, not num.partitions")
                    .hasSize(OFFSETS_PARTITIONS)
                    .allSatisfy(partition -> assertThat(partition.replicaNodes()).hasSize(1));

            MetadataResponseView.MetadataResponseBroker self = metadata.brokers().get(0);
            assertThat(findCoordinator(client, version, "first-group"))
                    .isEqualTo(new FoundCoordinator(Errors.NONE, self.nodeId(), self.host(), self.port()));
            assertThat(findCoordinator(client, version, "another-group")).as("the topic serves every group")
                    .isEqualTo(new FoundCoordinator(Errors.NONE, self.nodeId(), self.host(), self.port()));
        }
        try (Admin admin = TestBrokers.admin(broker)) {
            assertThat(admin.listTopics().names().get()).as("internal, so hidden by default")
                    .doesNotContain(OffsetsTopic.NAME);
            assertThat(admin.listTopics(new ListTopicsOptions().listInternal(true)).names().get())
                    .contains(OffsetsTopic.NAME);
            assertThat(admin.describeTopics(List.of(OffsetsTopic.NAME)).allTopicNames().get().get(OffsetsTopic.NAME)
                    .isInternal()).isTrue();
            ConfigResource resource = new ConfigResource(ConfigResource.Type.TOPIC, OffsetsTopic.NAME);
            Config configs = admin.describeConfigs(List.of(resource)).all().get().get(resource);
            assertThat(configs.get("cleanup.policy").value()).isEqualTo("compact");
            assertThat(configs.get("segment.bytes").value()).as("offsets.topic.segment.bytes' default")
                    .isEqualTo("104857600");
        }
    }

    @Test
    void aMetadataRequestThatCreatesTheOffsetsTopicGivesItTheOffsetsTopicsSettings() throws Exception {
        broker = TestBrokers.start(logDir, Map.of("offsets.topic.num.partitions", Integer.toString(OFFSETS_PARTITIONS),
                "num.partitions", "5"));
        try (GroupWireClient client = new GroupWireClient(broker.boundPort("PLAINTEXT"))) {
            MetadataRequestView request = new MetadataRequestView().allowAutoTopicCreation(true);
            request.addTopic().name(OffsetsTopic.NAME);
            MetadataResponseView.MetadataResponseTopic creating = new MetadataResponseView(
                    client.call(ApiKey.METADATA, 12, request.struct())).topics().get(0);
            // As Kafka's AutoTopicCreationManager answers the request that sets the creation off.
            assertThat(creating.errorCode()).isEqualTo(Errors.UNKNOWN_TOPIC_OR_PARTITION.code());
            assertThat(creating.isInternal()).isTrue();
            assertThat(creating.partitions()).isEmpty();

            MetadataResponseView.MetadataResponseTopic topic = new MetadataResponseView(
                    client.call(ApiKey.METADATA, 12, request.struct())).topics().get(0);
            assertThat(topic.errorCode()).isEqualTo(Errors.NONE.code());
            assertThat(topic.isInternal()).isTrue();
            assertThat(topic.partitions()).as("offsets.topic.num.partitions, not num.partitions")
                    .hasSize(OFFSETS_PARTITIONS);
        }
        try (Admin admin = TestBrokers.admin(broker)) {
            ConfigResource resource = new ConfigResource(ConfigResource.Type.TOPIC, OffsetsTopic.NAME);
            assertThat(admin.describeConfigs(List.of(resource)).all().get().get(resource).get("cleanup.policy")
                    .value()).isEqualTo("compact");
        }
    }

    /** One key's answer, whichever version carried it. */
    private record FoundCoordinator(Errors error, int nodeId, String host, int port) {
    }

    private static FoundCoordinator findCoordinator(GroupWireClient client, int version, String group)
            throws IOException {
        FindCoordinatorRequestView request = new FindCoordinatorRequestView().keyType((byte) 0);
        if (version < 4) {
            request.key(group);
        } else {
            request.coordinatorKeys(List.of(group));
        }
        FindCoordinatorResponseView response = new FindCoordinatorResponseView(
                client.call(ApiKey.FIND_COORDINATOR, version, request.struct()));
        if (version < 4) {
            return new FoundCoordinator(Errors.forCode(response.errorCode()), response.nodeId(), response.host(),
                    response.port());
        }
        FindCoordinatorResponseView.Coordinator coordinator = response.coordinators().get(0);
        assertThat(coordinator.key()).isEqualTo(group);
        return new FoundCoordinator(Errors.forCode(coordinator.errorCode()), coordinator.nodeId(), coordinator.host(),
                coordinator.port());
    }

    /** The offsets topic as a Metadata request that creates nothing sees it, as franz-go's tests ask. */
    private static MetadataResponseView.MetadataResponseTopic offsetsTopic(GroupWireClient client) {
        try {
            return metadata(client, OffsetsTopic.NAME).topics().get(0);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static MetadataResponseView metadata(GroupWireClient client, String topic) throws IOException {
        MetadataRequestView request = new MetadataRequestView().allowAutoTopicCreation(false);
        request.addTopic().name(topic);
        return new MetadataResponseView(client.call(ApiKey.METADATA, 12, request.struct()));
    }
}
