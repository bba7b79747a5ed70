package io.minibroker.broker.authz;

import io.minibroker.broker.admin.BrokerConfigChanges;
import io.minibroker.broker.admin.RuntimeLoggers;
import io.minibroker.broker.api.ApiHandler;
import io.minibroker.broker.api.RequestContext;
import io.minibroker.broker.api.TestContexts;
import io.minibroker.broker.config.BrokerConfigOverrides;
import io.minibroker.broker.security.KafkaPrincipal;
import io.minibroker.protocol.error.Errors;
import io.minibroker.protocol.header.RequestHeader;
import io.minibroker.protocol.message.ApiKey;
import io.minibroker.protocol.message.Request;
import io.minibroker.protocol.message.view.AlterShareGroupOffsetsRequestView;
import io.minibroker.protocol.message.view.AlterShareGroupOffsetsResponseView;
import io.minibroker.protocol.message.view.DeleteShareGroupOffsetsRequestView;
import io.minibroker.protocol.message.view.DeleteShareGroupOffsetsResponseView;
import io.minibroker.protocol.message.view.DescribeShareGroupOffsetsRequestView;
import io.minibroker.protocol.message.view.DescribeShareGroupOffsetsResponseView;
import io.minibroker.protocol.message.view.ShareAcknowledgeRequestView;
import io.minibroker.protocol.message.view.ShareAcknowledgeResponseView;
import io.minibroker.protocol.message.view.ShareFetchRequestView;
import io.minibroker.protocol.message.view.ShareFetchResponseView;
import io.minibroker.protocol.message.view.ShareGroupDescribeRequestView;
import io.minibroker.protocol.message.view.ShareGroupDescribeResponseView;
import io.minibroker.protocol.message.view.ShareGroupHeartbeatRequestView;
import io.minibroker.protocol.message.view.ShareGroupHeartbeatResponseView;
import io.minibroker.protocol.schema.Struct;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.function.Supplier;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The share-group checks no kafka-clients call isolates, driven through {@link AuthorizingHandler} with a recording
 * handler behind it: ShareFetch and ShareAcknowledge name topics by id, check READ on the named topic, answer the
 * refused ones next to the served ones and leave an unknown id to the handler; a share session's partition whose
 * topic may no longer be read is withheld from the answer; DescribeShareGroupOffsets answers a
 * refused group and a refused topic of an allowed group, and still serves the rest.
 */
class ShareChecksTest {

    private static final KafkaPrincipal CLIENT = KafkaPrincipal.user("client");
    private static final UUID OPEN = new UUID(1, 1);
    private static final UUID CLOSED = new UUID(2, 2);
    private static final UUID UNKNOWN = new UUID(3, 3);

    @TempDir
    Path dir;
    private StandardAuthorizer authorizer;
    /** Each resource the checks asked the authorizer about, as "OPERATION TYPE:name". */
    private final List<String> asked = new ArrayList<>();
    /** The authorizer as the checks see it: {@link #authorizer}, recording each question in {@link #asked}. */
    private final Authorizer counting = new Authorizer() {
        @Override
        public boolean authorize(KafkaPrincipal principal, String host, AclOperation operation, ResourceType type,
                                 String name) {
            asked.add(operation + " " + type + ":" + name);
            return authorizer.authorize(principal, host, operation, type, name);
        }

        @Override
        public boolean allowsAny(KafkaPrincipal principal, String host, AclOperation operation, ResourceType type) {
            return authorizer.allowsAny(principal, host, operation, type);
        }

        @Override
        public boolean isSuperUser(KafkaPrincipal principal) {
            return authorizer.isSuperUser(principal);
        }
    };
    private final List<Request> served = new ArrayList<>();
    private final List<RequestContext> contexts = new ArrayList<>();

    @BeforeEach
    void grants() throws Exception {
        authorizer = StandardAuthorizer.open(dir, null, false);
        authorizer.create(List.of(
                new AclBinding(ResourceType.TOPIC, "open", PatternType.LITERAL, "User:client", "*",
                        AclOperation.READ, AclPermissionType.ALLOW),
                new AclBinding(ResourceType.TOPIC, "open", PatternType.LITERAL, "User:client", "*",
                        AclOperation.DESCRIBE, AclPermissionType.ALLOW),
                new AclBinding(ResourceType.GROUP, "g", PatternType.LITERAL, "User:client", "*",
                        AclOperation.READ, AclPermissionType.ALLOW),
                new AclBinding(ResourceType.GROUP, "g", PatternType.LITERAL, "User:client", "*",
                        AclOperation.DESCRIBE, AclPermissionType.ALLOW)));
    }

    private Struct call(ApiKey api, short version, Struct body, Supplier<Struct> response) {
        ApiHandler recording = (context, request) -> {
            served.add(request);
            contexts.add(context);
            return CompletableFuture.completedFuture(response.get());
        };
        Map<UUID, String> names = Map.of(OPEN, "open", CLOSED, "closed");
        ApiHandler handler = AuthorizingHandler.wrap(api, recording, counting,
                new TopicFacts(id -> Optional.ofNullable(names.get(id)), name -> names.entrySet().stream()
                        .filter(e -> e.getValue().equals(name)).map(Map.Entry::getKey).findFirst(),
                        (name, partition) -> names.containsValue(name), false, true),
                BrokerConfigChanges.ofBroker(0, BrokerConfigOverrides.mirror(() -> { }), RuntimeLoggers.NONE));
        RequestContext context = TestContexts.withTlsPrincipal("SSL", new InetSocketAddress("127.0.0.1", 5555), CLIENT);
        return handler.handle(context, new Request(new RequestHeader(api.id(), version, 1, "test"), api, body))
                .toCompletableFuture().join();
    }

    @Test
    void shareFetchNeedsReadOnEachTopicNamedById() {
        ShareFetchRequestView request = new ShareFetchRequestView().groupId("g").memberId("m").shareSessionEpoch(1);
        for (UUID id : List.of(OPEN, CLOSED, UNKNOWN)) {
            request.addTopic().topicId(id).addPartition().partitionIndex(0).addAcknowledgementBatche()
                    .firstOffset(0).lastOffset(0).acknowledgeTypes(List.of((byte) 1));
        }
        ShareFetchResponseView response = new ShareFetchResponseView(call(ApiKey.SHARE_FETCH, (short) 1,
                request.struct(), () -> new ShareFetchResponseView().struct()));
        // the refused partition still reaches the handler, for the session (as Kafka's), without its acknowledgements
        assertThat(new ShareFetchRequestView(served.get(0).body()).topics()).extracting(t -> t.topicId())
                .containsExactly(OPEN, CLOSED, UNKNOWN);
        assertThat(new ShareFetchRequestView(served.get(0).body()).topics())
                .extracting(t -> t.partitions().get(0).acknowledgementBatches().size()).containsExactly(1, 0, 1);
        ShareFetchResponseView.PartitionData refused = response.responses().get(0).partitions().get(0);
        assertThat(response.responses().get(0).topicId()).isEqualTo(CLOSED);
        assertThat(refused.errorCode()).isEqualTo(Errors.TOPIC_AUTHORIZATION_FAILED.code());
        assertThat(refused.acknowledgeErrorCode()).isEqualTo(Errors.TOPIC_AUTHORIZATION_FAILED.code());
        assertThat(refused.currentLeader().leaderId()).as("no leader named: Kafka's default").isZero();
        assertThat(refused.currentLeader().leaderEpoch()).isZero();
    }

    /** At the opening epoch the handler refuses any acknowledgement (INVALID_REQUEST), a refused topic's too. */
    @Test
    void anOpeningFetchKeepsARefusedPartitionsAcknowledgementsForTheHandlerToRefuse() {
        ShareFetchRequestView request = new ShareFetchRequestView().groupId("g").memberId("m").shareSessionEpoch(0);
        request.addTopic().topicId(CLOSED).addPartition().partitionIndex(0).addAcknowledgementBatche()
                .firstOffset(0).lastOffset(0).acknowledgeTypes(List.of((byte) 1));
        ShareFetchResponseView response = new ShareFetchResponseView(call(ApiKey.SHARE_FETCH, (short) 1,
                request.struct(), () -> new ShareFetchResponseView().errorCode(Errors.INVALID_REQUEST.code())
                        .struct()));
        assertThat(new ShareFetchRequestView(served.get(0).body()).topics().get(0).partitions().get(0)
                .acknowledgementBatches()).hasSize(1);
        assertThat(response.errorCode()).isEqualTo(Errors.INVALID_REQUEST.code());
        assertThat(response.responses()).isEmpty();
    }

    @Test
    void aRefusedPartitionTheHandlerAnsweredFromTheSessionIsAnsweredOnce() {
        ShareFetchRequestView request = new ShareFetchRequestView().groupId("g").memberId("m").shareSessionEpoch(1);
        request.addTopic().topicId(CLOSED).addPartition().partitionIndex(0).addAcknowledgementBatche()
                .firstOffset(0).lastOffset(0).acknowledgeTypes(List.of((byte) 1));
        ShareFetchResponseView response = new ShareFetchResponseView(call(ApiKey.SHARE_FETCH, (short) 1,
                request.struct(), () -> {
                    ShareFetchResponseView answered = new ShareFetchResponseView(); // the session's partition
                    answered.addResponse().topicId(CLOSED).addPartition().partitionIndex(0)
                            .errorCode(Errors.TOPIC_AUTHORIZATION_FAILED.code()).currentLeader().leaderId(-1);
                    return answered.struct();
                }));
        assertThat(response.responses()).singleElement().satisfies(topic -> {
            assertThat(topic.topicId()).isEqualTo(CLOSED);
            assertThat(topic.partitions()).singleElement().satisfies(partition -> {
                assertThat(partition.errorCode()).isEqualTo(Errors.TOPIC_AUTHORIZATION_FAILED.code());
                assertThat(partition.acknowledgeErrorCode()).isEqualTo(Errors.TOPIC_AUTHORIZATION_FAILED.code());
            });
        });
    }

    @Test
    void theHandlerIsToldWhichTopicsTheMemberMayReadForItsSessionPartitions() {
        ShareFetchRequestView request = new ShareFetchRequestView().groupId("g").memberId("m").shareSessionEpoch(1);
        call(ApiKey.SHARE_FETCH, (short) 1, request.struct(), () -> new ShareFetchResponseView().struct());
        assertThat(contexts).singleElement().satisfies(context -> {
            assertThat(context.topicRights().mayRead("open")).isTrue();
            assertThat(context.topicRights().mayRead("closed")).isFalse();
        });
    }

    @Test
    void shareAcknowledgeNeedsReadOnTheGroupThenOnEachTopic() {
        ShareAcknowledgeRequestView request = new ShareAcknowledgeRequestView().groupId("other").memberId("m");
        request.addTopic().topicId(CLOSED).addPartition().partitionIndex(4);
        ShareAcknowledgeResponseView refusedGroup = new ShareAcknowledgeResponseView(call(ApiKey.SHARE_ACKNOWLEDGE,
                (short) 1, request.struct(), () -> new ShareAcknowledgeResponseView().struct()));
        assertThat(served).isEmpty();
        assertThat(refusedGroup.errorCode()).isEqualTo(Errors.GROUP_AUTHORIZATION_FAILED.code());

        request.groupId("g");
        ShareAcknowledgeResponseView response = new ShareAcknowledgeResponseView(call(ApiKey.SHARE_ACKNOWLEDGE,
                (short) 1, request.struct(), () -> new ShareAcknowledgeResponseView().struct()));
        assertThat(served).hasSize(1); // served with no topics: the session's epoch still moves on
        assertThat(response.responses().get(0).topicId()).isEqualTo(CLOSED);
        assertThat(response.responses().get(0).partitions().get(0).partitionIndex()).isEqualTo(4);
        assertThat(response.responses().get(0).partitions().get(0).errorCode())
                .isEqualTo(Errors.TOPIC_AUTHORIZATION_FAILED.code());
        assertThat(response.responses().get(0).partitions().get(0).currentLeader().leaderId())
                .as("no leader named: Kafka's default").isZero();
    }

    @Test
    void describeShareGroupOffsetsNeedsDescribeOnTheGroupAndEachTopic() {
        DescribeShareGroupOffsetsRequestView request = new DescribeShareGroupOffsetsRequestView();
        DescribeShareGroupOffsetsRequestView.DescribeShareGroupOffsetsRequestGroup group = request.addGroup()
                .groupId("g");
        group.addTopic().topicName("open").partitions(List.of(0));
        group.addTopic().topicName("closed").partitions(List.of(1));
        request.addGroup().groupId("other").topics(null);
        DescribeShareGroupOffsetsResponseView response = new DescribeShareGroupOffsetsResponseView(call(
                ApiKey.DESCRIBE_SHARE_GROUP_OFFSETS, (short) 0, request.struct(), () -> {
                    DescribeShareGroupOffsetsResponseView answer = new DescribeShareGroupOffsetsResponseView();
                    answer.addGroup().groupId("g").addTopic().topicName("open").topicId(OPEN).addPartition()
                            .partitionIndex(0).startOffset(7);
                    return answer.struct();
                }));
        DescribeShareGroupOffsetsRequestView servedRequest = new DescribeShareGroupOffsetsRequestView(
                served.get(0).body());
        assertThat(servedRequest.groups()).extracting(g -> g.groupId()).containsExactly("g");
        assertThat(servedRequest.groups().get(0).topics()).extracting(t -> t.topicName()).containsExactly("open");

        assertThat(response.groups()).extracting(g -> g.groupId()).containsExactly("g", "other");
        assertThat(response.groups().get(1).errorCode()).isEqualTo(Errors.GROUP_AUTHORIZATION_FAILED.code());
        DescribeShareGroupOffsetsResponseView.DescribeShareGroupOffsetsResponseTopic closed =
                response.groups().get(0).topics().get(1);
        assertThat(closed.topicName()).isEqualTo("closed");
        assertThat(closed.topicId()).as("no id for a refused topic, as Kafka 4.3.1").isEqualTo(new UUID(0, 0));
        assertThat(closed.partitions().get(0).startOffset()).isEqualTo(-1);
        assertThat(closed.partitions().get(0).errorCode()).isEqualTo(Errors.TOPIC_AUTHORIZATION_FAILED.code());
    }

    @Test
    void alterShareGroupOffsetsAnswersARefusedTopicWithItsId() {
        AlterShareGroupOffsetsRequestView request = new AlterShareGroupOffsetsRequestView().groupId("g");
        request.addTopic().topicName("closed").addPartition().partitionIndex(1).startOffset(0);
        AlterShareGroupOffsetsResponseView response = new AlterShareGroupOffsetsResponseView(call(
                ApiKey.ALTER_SHARE_GROUP_OFFSETS, (short) 0, request.struct(),
                () -> new AlterShareGroupOffsetsResponseView().struct()));
        AlterShareGroupOffsetsResponseView.AlterShareGroupOffsetsResponseTopic closed = response.responses().get(0);
        assertThat(closed.topicName()).isEqualTo("closed");
        assertThat(closed.topicId()).isEqualTo(CLOSED);
        assertThat(closed.partitions().get(0).errorCode()).isEqualTo(Errors.TOPIC_AUTHORIZATION_FAILED.code());
    }

    /** Kafka's error answer for a refused group carries the error's message in both offsets-changing APIs. */
    @Test
    void alteringOrDeletingOffsetsOfARefusedGroupIsAnsweredWithTheMessage() {
        AlterShareGroupOffsetsRequestView alter = new AlterShareGroupOffsetsRequestView().groupId("other");
        alter.addTopic().topicName("open").addPartition().partitionIndex(0).startOffset(0);
        AlterShareGroupOffsetsResponseView altered = new AlterShareGroupOffsetsResponseView(call(
                ApiKey.ALTER_SHARE_GROUP_OFFSETS, (short) 0, alter.struct(),
                () -> new AlterShareGroupOffsetsResponseView().struct()));
        assertThat(altered.errorCode()).isEqualTo(Errors.GROUP_AUTHORIZATION_FAILED.code());
        assertThat(altered.errorMessage()).isEqualTo("Group authorization failed.");
        assertThat(altered.responses()).isEmpty();

        DeleteShareGroupOffsetsRequestView delete = new DeleteShareGroupOffsetsRequestView().groupId("g");
        delete.addTopic().topicName("open");
        DeleteShareGroupOffsetsResponseView deleted = new DeleteShareGroupOffsetsResponseView(call(
                ApiKey.DELETE_SHARE_GROUP_OFFSETS, (short) 0, delete.struct(),
                () -> new DeleteShareGroupOffsetsResponseView().struct()));
        assertThat(deleted.errorCode()).isEqualTo(Errors.GROUP_AUTHORIZATION_FAILED.code());
        assertThat(deleted.errorMessage()).isEqualTo("Group authorization failed.");
        assertThat(served).isEmpty();
    }

    @Test
    void deletingOffsetsAnswersARefusedTopicWithoutItsId() throws Exception {
        authorizer.create(List.of(new AclBinding(ResourceType.GROUP, "g", PatternType.LITERAL, "User:client", "*",
                AclOperation.DELETE, AclPermissionType.ALLOW)));
        DeleteShareGroupOffsetsRequestView request = new DeleteShareGroupOffsetsRequestView().groupId("g");
        request.addTopic().topicName("closed");
        DeleteShareGroupOffsetsResponseView response = new DeleteShareGroupOffsetsResponseView(call(
                ApiKey.DELETE_SHARE_GROUP_OFFSETS, (short) 0, request.struct(),
                () -> new DeleteShareGroupOffsetsResponseView().struct()));
        assertThat(response.responses()).singleElement().satisfies(topic -> {
            assertThat(topic.topicName()).isEqualTo("closed");
            assertThat(topic.topicId()).as("Kafka 4.3.1 leaves it at the zero id").isEqualTo(new UUID(0, 0));
            assertThat(topic.errorCode()).isEqualTo(Errors.TOPIC_AUTHORIZATION_FAILED.code());
        });
    }

    /** Kafka checks the share session before the topics: a session refused whole is answered without partitions. */
    @Test
    void aShareAcknowledgeRefusedWholeByTheHandlerNamesNoRefusedPartition() {
        ShareAcknowledgeRequestView request = new ShareAcknowledgeRequestView().groupId("g").memberId("m")
                .shareSessionEpoch(3);
        request.addTopic().topicId(CLOSED).addPartition().partitionIndex(0);
        ShareAcknowledgeResponseView response = new ShareAcknowledgeResponseView(call(ApiKey.SHARE_ACKNOWLEDGE,
                (short) 1, request.struct(), () -> new ShareAcknowledgeResponseView()
                        .errorCode(Errors.SHARE_SESSION_NOT_FOUND.code()).struct()));
        assertThat(response.errorCode()).isEqualTo(Errors.SHARE_SESSION_NOT_FOUND.code());
        assertThat(response.responses()).isEmpty();
    }

    /** Kafka's KafkaApis refuses a ShareFetch or ShareAcknowledge without a group id before it authorizes. */
    @Test
    void aShareRequestWithoutAGroupIdIsLeftToTheHandler() {
        ShareFetchRequestView fetch = new ShareFetchRequestView().groupId(null).memberId("m");
        ShareFetchResponseView fetched = new ShareFetchResponseView(call(ApiKey.SHARE_FETCH, (short) 1,
                fetch.struct(), () -> new ShareFetchResponseView().errorCode(Errors.INVALID_REQUEST.code()).struct()));
        ShareAcknowledgeRequestView acknowledge = new ShareAcknowledgeRequestView().groupId(null).memberId("m");
        ShareAcknowledgeResponseView acknowledged = new ShareAcknowledgeResponseView(call(ApiKey.SHARE_ACKNOWLEDGE,
                (short) 1, acknowledge.struct(), () -> new ShareAcknowledgeResponseView()
                        .errorCode(Errors.INVALID_REQUEST.code()).struct()));
        assertThat(served).hasSize(2);
        assertThat(fetched.errorCode()).isEqualTo(Errors.INVALID_REQUEST.code());
        assertThat(acknowledged.errorCode()).isEqualTo(Errors.INVALID_REQUEST.code());
    }

    /** Kafka's KafkaApis refuses a share member id it does not take after the group's READ, before the topics. */
    @Test
    void aShareHeartbeatWithAMemberIdKafkaDoesNotTakeIsInvalidBeforeItsTopicsAreChecked() {
        ShareGroupHeartbeatRequestView request = new ShareGroupHeartbeatRequestView().groupId("g")
                .memberId("m".repeat(37)).memberEpoch(0).subscribedTopicNames(List.of("closed"));
        ShareGroupHeartbeatResponseView response = new ShareGroupHeartbeatResponseView(call(
                ApiKey.SHARE_GROUP_HEARTBEAT, (short) 1, request.struct(),
                () -> new ShareGroupHeartbeatResponseView().struct()));
        assertThat(response.errorCode()).isEqualTo(Errors.INVALID_REQUEST.code());
        assertThat(served).isEmpty();

        request.groupId("other"); // the group's READ comes first
        assertThat(new ShareGroupHeartbeatResponseView(call(ApiKey.SHARE_GROUP_HEARTBEAT, (short) 1,
                request.struct(), () -> new ShareGroupHeartbeatResponseView().struct())).errorCode())
                .isEqualTo(Errors.GROUP_AUTHORIZATION_FAILED.code());
    }

    /**
     * A share member's heartbeat asks the authorizer for the group's READ once, whether its member id is valid or
     * not (checked first, then the group's READ), and for each subscribed topic's DESCRIBE once.
     */
    @Test
    void aShareHeartbeatAsksForTheGroupOnce() {
        ShareGroupHeartbeatRequestView request = new ShareGroupHeartbeatRequestView().groupId("g")
                .memberId("member-a").memberEpoch(0).subscribedTopicNames(List.of("open"));
        ShareGroupHeartbeatResponseView answer = new ShareGroupHeartbeatResponseView(call(
                ApiKey.SHARE_GROUP_HEARTBEAT, (short) 1, request.struct(),
                () -> new ShareGroupHeartbeatResponseView().struct()));
        assertThat(answer.errorCode()).isEqualTo(Errors.NONE.code());
        assertThat(served).hasSize(1);
        assertThat(asked).containsExactly("READ GROUP:g", "DESCRIBE TOPIC:open");

        asked.clear();
        request.memberId("m".repeat(37)); // not a member id Kafka takes: refused once the group's READ is allowed
        assertThat(new ShareGroupHeartbeatResponseView(call(ApiKey.SHARE_GROUP_HEARTBEAT, (short) 1,
                request.struct(), () -> new ShareGroupHeartbeatResponseView().struct())).errorCode())
                .isEqualTo(Errors.INVALID_REQUEST.code());
        assertThat(asked).containsExactly("READ GROUP:g");
    }

    /** A described group refused for its members' topics is a new DescribedGroup in Kafka: no authorized operations. */
    @Test
    void aShareGroupRefusedForItsAssignedTopicsHasNoAuthorizedOperations() {
        ShareGroupDescribeRequestView request = new ShareGroupDescribeRequestView().groupIds(List.of("g"))
                .includeAuthorizedOperations(true);
        ShareGroupDescribeResponseView response = new ShareGroupDescribeResponseView(call(
                ApiKey.SHARE_GROUP_DESCRIBE, (short) 1, request.struct(), () -> {
                    ShareGroupDescribeResponseView answer = new ShareGroupDescribeResponseView();
                    answer.addGroup().groupId("g").groupState("Stable").addMember().memberId("m").assignment()
                            .addTopicPartition().topicId(CLOSED).topicName("closed").partitions(List.of(0));
                    return answer.struct();
                }));
        assertThat(response.groups()).singleElement().satisfies(group -> {
            assertThat(group.errorCode()).isEqualTo(Errors.TOPIC_AUTHORIZATION_FAILED.code());
            assertThat(group.members()).isEmpty();
            assertThat(group.authorizedOperations()).isEqualTo(Integer.MIN_VALUE);
        });
    }

    /**
     * Kafka's order: ShareGroupDescribe's refused groups first, DescribeShareGroupOffsets' groups as asked, and
     * Alter/DeleteShareGroupOffsets' refused topics before their coordinator's.
     */
    @Test
    void refusalsComeInKafkasOrder() throws Exception {
        ShareGroupDescribeResponseView described = new ShareGroupDescribeResponseView(call(
                ApiKey.SHARE_GROUP_DESCRIBE, (short) 1, new ShareGroupDescribeRequestView()
                        .groupIds(List.of("g", "other")).struct(), () -> {
                    ShareGroupDescribeResponseView answer = new ShareGroupDescribeResponseView();
                    answer.addGroup().groupId("g").groupState("Empty");
                    return answer.struct();
                }));
        assertThat(described.groups()).extracting(g -> g.groupId()).containsExactly("other", "g");

        DescribeShareGroupOffsetsRequestView offsets = new DescribeShareGroupOffsetsRequestView();
        offsets.addGroup().groupId("other").topics(null);
        offsets.addGroup().groupId("g").topics(null);
        DescribeShareGroupOffsetsResponseView offsetsDescribed = new DescribeShareGroupOffsetsResponseView(call(
                ApiKey.DESCRIBE_SHARE_GROUP_OFFSETS, (short) 0, offsets.struct(), () -> {
                    DescribeShareGroupOffsetsResponseView answer = new DescribeShareGroupOffsetsResponseView();
                    answer.addGroup().groupId("g");
                    return answer.struct();
                }));
        assertThat(offsetsDescribed.groups()).extracting(g -> g.groupId()).containsExactly("other", "g");

        AlterShareGroupOffsetsRequestView alter = new AlterShareGroupOffsetsRequestView().groupId("g");
        alter.addTopic().topicName("open").addPartition().partitionIndex(0).startOffset(0);
        alter.addTopic().topicName("closed").addPartition().partitionIndex(0).startOffset(0);
        AlterShareGroupOffsetsResponseView altered = new AlterShareGroupOffsetsResponseView(call(
                ApiKey.ALTER_SHARE_GROUP_OFFSETS, (short) 0, alter.struct(), () -> {
                    AlterShareGroupOffsetsResponseView answer = new AlterShareGroupOffsetsResponseView();
                    answer.addResponse().topicName("open").topicId(OPEN).addPartition().partitionIndex(0);
                    return answer.struct();
                }));
        assertThat(altered.responses()).extracting(t -> t.topicName()).containsExactly("closed", "open");

        authorizer.create(List.of(new AclBinding(ResourceType.GROUP, "g", PatternType.LITERAL, "User:client", "*",
                AclOperation.DELETE, AclPermissionType.ALLOW)));
        DeleteShareGroupOffsetsRequestView delete = new DeleteShareGroupOffsetsRequestView().groupId("g");
        delete.addTopic().topicName("open");
        delete.addTopic().topicName("closed");
        DeleteShareGroupOffsetsResponseView deleted = new DeleteShareGroupOffsetsResponseView(call(
                ApiKey.DELETE_SHARE_GROUP_OFFSETS, (short) 0, delete.struct(), () -> {
                    DeleteShareGroupOffsetsResponseView answer = new DeleteShareGroupOffsetsResponseView();
                    answer.addResponse().topicName("open").topicId(OPEN);
                    return answer.struct();
                }));
        assertThat(deleted.responses()).extracting(t -> t.topicName()).containsExactly("closed", "open");
    }

    /**
     * The refused items are placed by where they were in the request, not found again by their error: an entry the
     * handler answered TOPIC_AUTHORIZATION_FAILED itself stays among the handler's, and a group refused between two
     * described ones stays between them.
     */
    @Test
    void refusalsArePlacedByPositionNotByTheirError() throws Exception {
        authorizer.create(List.of(
                new AclBinding(ResourceType.GROUP, "g", PatternType.LITERAL, "User:client", "*",
                        AclOperation.DELETE, AclPermissionType.ALLOW),
                new AclBinding(ResourceType.TOPIC, "also-open", PatternType.LITERAL, "User:client", "*",
                        AclOperation.READ, AclPermissionType.ALLOW),
                new AclBinding(ResourceType.GROUP, "g2", PatternType.LITERAL, "User:client", "*",
                        AclOperation.DESCRIBE, AclPermissionType.ALLOW)));
        DeleteShareGroupOffsetsRequestView delete = new DeleteShareGroupOffsetsRequestView().groupId("g");
        delete.addTopic().topicName("open");
        delete.addTopic().topicName("also-open");
        delete.addTopic().topicName("closed");
        DeleteShareGroupOffsetsResponseView deleted = new DeleteShareGroupOffsetsResponseView(call(
                ApiKey.DELETE_SHARE_GROUP_OFFSETS, (short) 0, delete.struct(), () -> {
                    DeleteShareGroupOffsetsResponseView answer = new DeleteShareGroupOffsetsResponseView();
                    answer.addResponse().topicName("open").topicId(OPEN);
                    answer.addResponse().topicName("also-open").topicId(new UUID(4, 4))
                            .errorCode(Errors.TOPIC_AUTHORIZATION_FAILED.code());
                    return answer.struct();
                }));
        assertThat(deleted.responses()).extracting(t -> t.topicName()).containsExactly("closed", "open", "also-open");

        DescribeShareGroupOffsetsRequestView offsets = new DescribeShareGroupOffsetsRequestView();
        for (String group : List.of("g", "other", "g2")) {
            offsets.addGroup().groupId(group).topics(null);
        }
        DescribeShareGroupOffsetsResponseView offsetsDescribed = new DescribeShareGroupOffsetsResponseView(call(
                ApiKey.DESCRIBE_SHARE_GROUP_OFFSETS, (short) 0, offsets.struct(), () -> {
                    DescribeShareGroupOffsetsResponseView answer = new DescribeShareGroupOffsetsResponseView();
                    answer.addGroup().groupId("g");
                    answer.addGroup().groupId("g2");
                    return answer.struct();
                }));
        assertThat(offsetsDescribed.groups()).extracting(g -> g.groupId()).containsExactly("g", "other", "g2");
    }
}
