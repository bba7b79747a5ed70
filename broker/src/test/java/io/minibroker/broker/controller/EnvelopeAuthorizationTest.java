package io.minibroker.broker.controller;

import io.minibroker.broker.cluster.NodeChannel;
import io.minibroker.broker.config.BrokerConfig;
import io.minibroker.broker.embedded.MiniCluster;
import io.minibroker.broker.security.KafkaPrincipal;
import io.minibroker.broker.security.KafkaPrincipalSerde;
import io.minibroker.protocol.error.Errors;
import io.minibroker.protocol.frame.Frames;
import io.minibroker.protocol.header.RequestHeader;
import io.minibroker.protocol.message.ApiKey;
import io.minibroker.protocol.message.MessageCodec;
import io.minibroker.protocol.message.Response;
import io.minibroker.protocol.message.view.CreateTopicsRequestView;
import io.minibroker.protocol.message.view.CreateTopicsResponseView;
import io.minibroker.protocol.message.view.DeleteTopicsRequestView;
import io.minibroker.protocol.message.view.DeleteTopicsResponseView;
import io.minibroker.protocol.message.view.ElectLeadersRequestView;
import io.minibroker.protocol.message.view.ElectLeadersResponseView;
import io.minibroker.protocol.message.view.EnvelopeRequestView;
import io.minibroker.protocol.message.view.EnvelopeResponseView;
import io.minibroker.protocol.schema.Struct;
import io.netty.buffer.Unpooled;
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
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.TimeUnit;

import static io.minibroker.broker.server.Eventually.await;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * The controller of a three-node cluster with ACLs authorizes the request inside an Envelope again, as its client's,
 * as Kafka's ControllerApis does: an envelope sent by hand from a node's principal (a super user) for a client
 * principal that lacks the rights is answered inside with Kafka's refusals, where an unchecked controller would have
 * created, deleted or elected; a right the client holds is honoured.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class EnvelopeAuthorizationTest {

    private static final KafkaPrincipal MALLORY = KafkaPrincipal.user("mallory");
    private static final int INNER_CORRELATION_ID = 77;

    private static Struct envelope(ApiKey api, short version, Struct body, KafkaPrincipal client) {
        byte[] frame = MessageCodec.encodeRequestToArray(new RequestHeader(api.id(), version, INNER_CORRELATION_ID,
                "mallory-app"), body);
        return new EnvelopeRequestView()
                .requestData(Arrays.copyOfRange(frame, Frames.SIZE_PREFIX_BYTES, frame.length))
                .requestPrincipal(KafkaPrincipalSerde.serialize(client, false))
                .clientHostAddress(new byte[]{127, 0, 0, 1}).struct();
    }

    /** The answer inside the controller's EnvelopeResponse, which must have taken the envelope. */
    private static Struct inner(NodeChannel controller, ApiKey api, short version, Struct body) throws Exception {
        EnvelopeResponseView answer = new EnvelopeResponseView(controller.send(ApiKey.ENVELOPE, (short) 0,
                envelope(api, version, body, MALLORY)));
        assertThat(answer.errorCode()).isEqualTo(Errors.NONE.code());
        Response response = MessageCodec.decodeResponse(Unpooled.wrappedBuffer(answer.responseData()), api, version);
        assertThat(response.correlationId()).isEqualTo(INNER_CORRELATION_ID);
        return response.body();
    }

    private static Struct createTopic(String name) {
        CreateTopicsRequestView create = new CreateTopicsRequestView().timeoutMs(30_000);
        create.addTopic().name(name).numPartitions(1).replicationFactor((short) 3);
        return create.struct();
    }

    @Test
    void theControllerChecksTheRequestInsideAsTheClients() throws Exception {
        Map<String, String> settings = Map.of("authorizer.class.name", BrokerConfig.STANDARD_AUTHORIZER,
                "super.users", "User:ANONYMOUS", "broker.heartbeat.interval.ms", "100");
        try (MiniCluster cluster = MiniCluster.start(3, settings);
             Admin admin = Admin.create(Map.of(CommonClientConfigs.BOOTSTRAP_SERVERS_CONFIG,
                     cluster.bootstrapServers()));
             NodeChannel controller = new NodeChannel("localhost", cluster.controller().boundPort("CONTROLLER"),
                     "broker-by-hand", 30_000)) {
            await(() -> cluster.controller().membership().liveBrokers().size() == 3, "three brokers registered");
            admin.createTopics(List.of(new NewTopic("guarded", 1, (short) 3))).all().get();
            UUID id = toUuid(admin.describeTopics(List.of("guarded")).allTopicNames().get().get("guarded")
                    .topicId());

            CreateTopicsResponseView created = new CreateTopicsResponseView(inner(controller, ApiKey.CREATE_TOPICS,
                    (short) 7, createTopic("mallorys")));
            assertThat(created.topics()).singleElement().satisfies(topic -> {
                assertThat(topic.errorCode()).isEqualTo(Errors.TOPIC_AUTHORIZATION_FAILED.code());
                assertThat(topic.errorMessage()).isEqualTo("Authorization failed.");
            });

            DeleteTopicsRequestView delete = new DeleteTopicsRequestView().timeoutMs(30_000);
            delete.addTopic().topicId(id);
            DeleteTopicsResponseView deleted = new DeleteTopicsResponseView(inner(controller, ApiKey.DELETE_TOPICS,
                    (short) 6, delete.struct()));
            assertThat(deleted.responses()).singleElement().satisfies(topic -> {
                assertThat(topic.errorCode()).isEqualTo(Errors.TOPIC_AUTHORIZATION_FAILED.code());
                assertThat(topic.name()).as("not told to a principal that may not describe it").isNull();
            });

            ElectLeadersRequestView elect = new ElectLeadersRequestView().electionType((byte) 0).timeoutMs(30_000);
            elect.addTopicPartition().topic("guarded").partitions(List.of(0));
            ElectLeadersResponseView elected = new ElectLeadersResponseView(inner(controller, ApiKey.ELECT_LEADERS,
                    (short) 2, elect.struct()));
            assertThat(elected.errorCode()).isEqualTo(Errors.CLUSTER_AUTHORIZATION_FAILED.code());

            assertThat(admin.listTopics().names().get()).as("nothing created, nothing deleted")
                    .contains("guarded").doesNotContain("mallorys");

            // Her right, once the controller has it, is honoured: the principal checked is the envelope's.
            admin.createAcls(List.of(new AclBinding(new ResourcePattern(ResourceType.TOPIC, "mallorys",
                    PatternType.LITERAL), new AccessControlEntry(MALLORY.toString(), "*", AclOperation.CREATE,
                    AclPermissionType.ALLOW)))).all().get();
            CreateTopicsResponseView allowed = new CreateTopicsResponseView(inner(controller, ApiKey.CREATE_TOPICS,
                    (short) 7, createTopic("mallorys")));
            assertThat(allowed.topics()).singleElement().satisfies(topic -> {
                assertThat(topic.errorCode()).isEqualTo(Errors.NONE.code());
                assertThat(topic.topicConfigErrorCode()).as("no DESCRIBE_CONFIGS on it")
                        .isEqualTo(Errors.TOPIC_AUTHORIZATION_FAILED.code());
            });
        }
    }

    private static UUID toUuid(org.apache.kafka.common.Uuid id) {
        return new UUID(id.getMostSignificantBits(), id.getLeastSignificantBits());
    }
}
