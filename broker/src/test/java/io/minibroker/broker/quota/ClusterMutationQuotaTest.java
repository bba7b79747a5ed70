package io.minibroker.broker.quota;

import io.minibroker.broker.cluster.NodeChannel;
import io.minibroker.broker.embedded.MiniCluster;
import io.minibroker.protocol.error.Errors;
import io.minibroker.protocol.message.ApiKey;
import io.minibroker.protocol.message.view.CreateTopicsRequestView;
import io.minibroker.protocol.message.view.MetadataRequestView;
import io.minibroker.protocol.message.view.MetadataResponseView;
import io.minibroker.purgatory.time.ManualClock;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.CreatePartitionsOptions;
import org.apache.kafka.clients.admin.CreateTopicsOptions;
import org.apache.kafka.clients.admin.NewPartitions;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.common.errors.InvalidReplicaAssignmentException;
import org.apache.kafka.common.errors.ThrottlingQuotaExceededException;
import org.apache.kafka.common.quota.ClientQuotaAlteration;
import org.apache.kafka.common.quota.ClientQuotaEntity;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;

import static io.minibroker.broker.server.Eventually.await;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * controller_mutation_rate in a three-node cluster, where the controller counts what brokers forward for their
 * clients, at 10 partitions a second (2 windows of 1 s: a burst of 20) for client id "mutator", on the cluster's
 * manual clock; each test starts with the mutator's bucket at -1, one token short.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class ClusterMutationQuotaTest {

    private static final CreateTopicsOptions NO_RETRY = new CreateTopicsOptions().retryOnQuotaViolation(false);
    private static final CreatePartitionsOptions NO_RETRY_PARTITIONS = new CreatePartitionsOptions()
            .retryOnQuotaViolation(false);

    private final ManualClock clock = new ManualClock();
    private MiniCluster cluster;
    private Admin mutator;
    private Admin other;

    /** The cluster, the mutator's quota, and its bucket emptied to -1 by a first CreateTopics of 21 partitions. */
    @BeforeEach
    void start() throws Exception {
        cluster = MiniCluster.start(3, Map.of("controller.quota.window.num", "2", "broker.heartbeat.interval.ms", "100"),
                clock);
        mutator = admin("mutator");
        other = admin("other");
        await(() -> cluster.controller().membership().liveBrokers().size() == 3, "three brokers registered");
        other.alterClientQuotas(List.of(new ClientQuotaAlteration(
                new ClientQuotaEntity(Map.of(ClientQuotaEntity.CLIENT_ID, "mutator")),
                List.of(new ClientQuotaAlteration.Op(QuotaConfig.CONTROLLER_MUTATION_RATE, 10.0))))).all().get();
        mutator.createTopics(List.of(new NewTopic("burst", 21, (short) 1)), NO_RETRY).all().get();
    }

    @AfterEach
    void stop() {
        mutator.close();
        other.close();
        cluster.close();
    }

    /**
     * As Kafka's broker, a topic a Metadata request auto-creates goes to the controller in an Envelope as the
     * client's CreateTopics (its principal and client id), so the client's controller_mutation_rate applies: over
     * it, the topic is refused and the client still finds it unknown; once the bucket refills, its next Metadata has
     * it created.
     */
    @Test
    void aTopicAutoCreatedByMetadataCountsAgainstTheClientsQuota() throws Exception {
        int port = cluster.node(1).boundPort("PLAINTEXT");
        try (NodeChannel asMutator = new NodeChannel("localhost", port, "mutator", 30_000);
             NodeChannel asOther = new NodeChannel("localhost", port, "other", 30_000)) {
            assertThat(topicError(asMutator, "wanted", true)).isEqualTo(Errors.UNKNOWN_TOPIC_OR_PARTITION);
            // Forwarded after the auto-creation on node 1's one forwarding connection: answered after it.
            CreateTopicsRequestView marker = new CreateTopicsRequestView().timeoutMs(30_000);
            marker.addTopic().name("marker").numPartitions(1).replicationFactor((short) 1);
            asOther.send(ApiKey.CREATE_TOPICS, (short) 7, marker.struct());
            assertThat(topicError(asOther, "wanted", false)).as("refused over the mutator's quota")
                    .isEqualTo(Errors.UNKNOWN_TOPIC_OR_PARTITION);

            clock.advance(100);
            assertThat(topicError(asMutator, "wanted", true)).isEqualTo(Errors.UNKNOWN_TOPIC_OR_PARTITION);
            await(() -> topicError(asOther, "wanted", false) == Errors.NONE, "wanted created");
        }
    }

    /**
     * As Kafka's controller, CreatePartitions counts a topic once its count and number of replica lists pass, before
     * it looks at the brokers the lists name: over the quota, a list naming an absent broker is told
     * THROTTLING_QUOTA_EXCEEDED; within it, the partitions it asked for are taken from the bucket though refused.
     */
    @Test
    void createPartitionsIsCountedBeforeItsAssignmentsBrokersAreChecked() throws Exception {
        other.createTopics(List.of(new NewTopic("grown", 1, (short) 1))).all().get();
        assertThatThrownBy(() -> mutator.createPartitions(Map.of("grown", NewPartitions.increaseTo(2,
                List.of(List.of(7)))), NO_RETRY_PARTITIONS).all().get())
                .isInstanceOf(ExecutionException.class).cause()
                .isInstanceOf(ThrottlingQuotaExceededException.class);

        clock.advance(100); // the bucket back at 0: the next topic goes through, whatever it takes
        assertThatThrownBy(() -> mutator.createPartitions(Map.of("grown", NewPartitions.increaseTo(21,
                Collections.nCopies(20, List.of(7)))), NO_RETRY_PARTITIONS).all().get())
                .isInstanceOf(ExecutionException.class).cause()
                .isInstanceOf(InvalidReplicaAssignmentException.class);
        assertThatThrownBy(() -> mutator.createTopics(List.of(new NewTopic("after", 1, (short) 1)), NO_RETRY)
                .all().get())
                .as("the 20 refused partitions were counted: 2 s to refill")
                .isInstanceOf(ExecutionException.class).cause()
                .isInstanceOf(ThrottlingQuotaExceededException.class)
                .satisfies(e -> assertThat(((ThrottlingQuotaExceededException) e).throttleTimeMs())
                        .isEqualTo(2000));
    }

    /** The error node's Metadata answers for {@code topic}. */
    private static Errors topicError(NodeChannel node, String topic, boolean autoCreate) {
        MetadataRequestView request = new MetadataRequestView().allowAutoTopicCreation(autoCreate);
        request.addTopic().name(topic);
        try {
            return Errors.forCode(new MetadataResponseView(node.send(ApiKey.METADATA, (short) 12, request.struct()))
                    .topics().get(0).errorCode());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private Admin admin(String clientId) {
        return Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, cluster.bootstrapServers(),
                AdminClientConfig.CLIENT_ID_CONFIG, clientId));
    }
}
