package io.minibroker.broker.replica;

import io.minibroker.broker.config.BrokerConfig;
import io.minibroker.broker.controller.TopicAssignments;
import io.minibroker.broker.embedded.MiniCluster;
import io.minibroker.broker.network.RawClient;
import io.minibroker.protocol.error.Errors;
import io.minibroker.protocol.message.ApiKey;
import io.minibroker.protocol.message.view.CreatePartitionsRequestView;
import io.minibroker.protocol.message.view.CreatePartitionsResponseView;
import io.minibroker.protocol.message.view.CreateTopicsRequestView;
import io.minibroker.protocol.message.view.CreateTopicsResponseView;
import io.minibroker.protocol.message.view.DeleteTopicsRequestView;
import io.minibroker.protocol.message.view.DeleteTopicsResponseView;
import org.apache.kafka.clients.CommonClientConfigs;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.common.acl.AccessControlEntry;
import org.apache.kafka.common.acl.AclBinding;
import org.apache.kafka.common.acl.AclOperation;
import org.apache.kafka.common.acl.AclPermissionType;
import org.apache.kafka.common.resource.PatternType;
import org.apache.kafka.common.resource.ResourcePattern;
import org.apache.kafka.common.resource.ResourceType;
import org.assertj.core.groups.Tuple;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import static io.minibroker.broker.server.Eventually.await;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;

/**
 * CreateTopics, CreatePartitions and DeleteTopics with a TimeoutMs of 0 sent to a cluster's broker, which forwards
 * them to the controller, with ACLs on: answered as Kafka 4.3.1's controller answers them past their deadline
 * (admin/PastDeadline), the refused topics too once anything is left to change, and DeleteTopics whatever the ACLs.
 * The client and the nodes are ANONYMOUS on PLAINTEXT, allowed what no ACL names; the client is denied the topic
 * "denied" (CREATE, ALTER, DELETE).
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class ClusterTopicChangesPastDeadlineTest {

    private static final short TIMED_OUT = Errors.REQUEST_TIMED_OUT.code();
    private static final int BROKER = 1;

    @Test
    void aForwardedTopicChangePastItsDeadlineTimesOutWholeAfterTheAcls() throws Exception {
        try (MiniCluster cluster = MiniCluster.start(2, Map.of("authorizer.class.name",
                BrokerConfig.STANDARD_AUTHORIZER, "allow.everyone.if.no.acl.found", "true"));
             Admin admin = Admin.create(Map.of(CommonClientConfigs.BOOTSTRAP_SERVERS_CONFIG,
                     cluster.bootstrapServers()));
             RawClient client = new RawClient(cluster.node(BROKER).boundPort("PLAINTEXT"))) {
            await(() -> cluster.controller().membership().liveBrokers().size() == 2, "two brokers registered");
            admin.createTopics(List.of(new NewTopic("denied", 1, (short) 1), new NewTopic("open", 1, (short) 1)))
                    .all().get();
            for (AclOperation operation : List.of(AclOperation.CREATE, AclOperation.ALTER, AclOperation.DELETE)) {
                admin.createAcls(List.of(new AclBinding(new ResourcePattern(ResourceType.TOPIC, "denied",
                        PatternType.LITERAL), new AccessControlEntry("User:ANONYMOUS", "*", operation,
                        AclPermissionType.DENY)))).all().get();
            }
            CreatePartitionsRequestView deniedOnly = new CreatePartitionsRequestView().timeoutMs(0);
            deniedOnly.addTopic().name("denied").count(2).assignments(null);
            await(() -> createPartitions(client, deniedOnly).equals(List.of(tuple("denied",
                    Errors.TOPIC_AUTHORIZATION_FAILED.code()))), "the ACLs applied by node " + BROKER);

            CreatePartitionsRequestView both = new CreatePartitionsRequestView().timeoutMs(0);
            both.addTopic().name("denied").count(2).assignments(null);
            both.addTopic().name("open").count(2).assignments(null);
            assertThat(createPartitions(client, both)).containsExactlyInAnyOrder(tuple("denied", TIMED_OUT),
                    tuple("open", TIMED_OUT));

            CreateTopicsRequestView create = new CreateTopicsRequestView().timeoutMs(0);
            create.addTopic().name("denied").numPartitions(1).replicationFactor((short) 1);
            create.addTopic().name("fresh").numPartitions(1).replicationFactor((short) 1);
            short version = ApiKey.CREATE_TOPICS.highestStableVersion();
            assertThat(new CreateTopicsResponseView(client.exchange(ApiKey.CREATE_TOPICS, version, create.struct()))
                    .topics()).extracting(t -> tuple(t.name(), t.errorCode(), t.errorMessage()))
                    .containsExactlyInAnyOrder(tuple("denied", TIMED_OUT, null), tuple("fresh", TIMED_OUT, null));

            DeleteTopicsRequestView delete = new DeleteTopicsRequestView().timeoutMs(0)
                    .topicNames(List.of("denied"));
            assertThat(new DeleteTopicsResponseView(client.exchange(ApiKey.DELETE_TOPICS, (short) 5, delete.struct()))
                    .responses()).as("looked up whatever the ACLs say")
                    .extracting(t -> tuple(t.name(), t.errorCode())).containsExactly(tuple("denied", TIMED_OUT));

            TopicAssignments topics = cluster.controller().topicAssignments();
            assertThat(topics.idOf("denied")).as("not deleted").isPresent();
            assertThat(topics.idOf("fresh")).as("not created").isEmpty();
            assertThat(topics.partitionCount("open")).as("no partition added").isEqualTo(1);
        }
    }

    private static List<Tuple> createPartitions(RawClient client, CreatePartitionsRequestView request) {
        return new CreatePartitionsResponseView(client.exchange(ApiKey.CREATE_PARTITIONS, (short) 3, request.struct()))
                .results().stream().map(r -> tuple(r.name(), r.errorCode())).toList();
    }
}
