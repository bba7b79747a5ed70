package io.minibroker.broker.group;

import io.minibroker.broker.log.TopicPartition;
import io.minibroker.broker.server.Broker;
import io.minibroker.broker.server.TestBrokers;
import io.minibroker.broker.transaction.TransactionMarker;
import io.minibroker.broker.transaction.TransactionResult;
import io.minibroker.protocol.error.Errors;
import io.minibroker.protocol.message.ApiKey;
import io.minibroker.protocol.message.view.OffsetFetchRequestView;
import io.minibroker.protocol.message.view.OffsetFetchResponseView;
import io.minibroker.protocol.message.view.TxnOffsetCommitRequestView;
import io.minibroker.protocol.message.view.TxnOffsetCommitResponseView;
import io.minibroker.protocol.schema.Struct;
import io.minibroker.purgatory.time.ManualClock;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * TxnOffsetCommit and OffsetFetch's requireStable spoken by hand against a single node: Kafka's errors for the group
 * fields (v3+), unknown topics, metadata too long and a fenced producer epoch, and KIP-447's UNSTABLE_OFFSET_COMMIT
 * until the producer's marker, written through the broker's marker appender ({@link Broker#transactionMarkers()}).
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class TxnOffsetCommitTest {

    private static final int JOIN_V9 = 9;
    private static final int TXN_V3 = 3;
    /** v4, the newest version below transaction version 2: the client adds the offsets partition itself. */
    private static final int TXN_V4 = 4;
    private static final String TRANSACTIONAL_ID = "tx";
    private static final TopicPartition OFFSETS_0 = new TopicPartition(OffsetsTopic.NAME, 0);

    @TempDir
    Path logDir;
    private Broker broker;
    private GroupWireClient client;
    /**
     * The producer of "tx" as InitProducerId (twice, so that an older epoch exists) made it, with a transaction the
     * coordinator has the offsets partition in (AddOffsetsToTxn), which it never ends: the tests write the markers.
     */
    private long producerId;
    private short epoch;

    @BeforeEach
    void start() throws Exception {
        broker = TestBrokers.start(logDir, Map.of("group.initial.rebalance.delay.ms", "0",
                "offsets.topic.num.partitions", "1"), new ManualClock());
        try (Admin admin = TestBrokers.admin(broker)) {
            admin.createTopics(List.of(new NewTopic("orders", 2, (short) 1))).all().get();
        }
        client = new GroupWireClient(broker.boundPort("PLAINTEXT"));
        TransactionalProducer.init(client, TRANSACTIONAL_ID);
        TransactionalProducer producer = TransactionalProducer.begin(client, TRANSACTIONAL_ID, "g");
        producerId = producer.id();
        epoch = producer.epoch(); // one producer, one offsets partition: every group's
    }

    @AfterEach
    void stop() throws Exception {
        client.close();
        broker.close();
    }

    /** A TxnOffsetCommit of one partition of "orders" (or of {@code topic}), with the group fields from v3. */
    private TxnOffsetCommitRequestView request(String groupId, short epoch, int version, int generation,
                                                      String memberId, String instanceId, String topic,
                                                      long offset, String metadata) {
        TxnOffsetCommitRequestView request = new TxnOffsetCommitRequestView().transactionalId(TRANSACTIONAL_ID)
                .groupId(groupId).producerId(producerId).producerEpoch(epoch);
        if (version >= TXN_V3) {
            request.generationIdOrMemberEpoch(generation).memberId(memberId).groupInstanceId(instanceId);
        }
        request.addTopic().name(topic).addPartition().partitionIndex(0).committedOffset(offset)
                .committedLeaderEpoch(-1).committedMetadata(metadata);
        return request;
    }

    private Errors txnCommit(TxnOffsetCommitRequestView request, int version) throws IOException {
        Struct response = client.call(ApiKey.TXN_OFFSET_COMMIT, version, request.struct());
        return Errors.forCode(new TxnOffsetCommitResponseView(response).topics().get(0).partitions().get(0)
                .errorCode());
    }

    /** The producer's marker on the group's offsets partition, as its transaction coordinator has it written. */
    private void writeMarker(TransactionResult result) throws Exception {
        assertThat(broker.transactionMarkers().append(new TransactionMarker(producerId, epoch, 0, result, (short) 0),
                List.of(OFFSETS_0)).toCompletableFuture().get()).containsEntry(OFFSETS_0, Errors.NONE);
    }

    private Errors simpleTxnCommit(String groupId, long offset) throws IOException {
        return txnCommit(request(groupId, epoch, TXN_V4, -1, "", null, "orders", offset, ""), TXN_V4);
    }

    private void plainCommit(String groupId, long offset) throws IOException {
        Struct body = ApiKey.OFFSET_COMMIT.request().newMessage().set("GroupId", groupId)
                .set("GenerationIdOrMemberEpoch", -1).set("MemberId", "");
        body.addElement("Topics").set("Name", "orders").addElement("Partitions").set("PartitionIndex", 0)
                .set("CommittedOffset", offset).set("CommittedMetadata", "");
        Struct response = client.call(ApiKey.OFFSET_COMMIT, 8, body);
        assertThat(response.getStructs("Topics").get(0).getStructs("Partitions").get(0).getInt16("ErrorCode"))
                .isEqualTo(Errors.NONE.code());
    }

    /** OffsetFetch v7 of orders-0 and orders-1: each partition's (error, offset). */
    private List<Object> fetchV7(String groupId, boolean requireStable) throws IOException {
        OffsetFetchRequestView request = new OffsetFetchRequestView().groupId(groupId).requireStable(requireStable);
        request.addTopic().name("orders").partitionIndexes(List.of(0, 1));
        OffsetFetchResponseView response = new OffsetFetchResponseView(client.call(ApiKey.OFFSET_FETCH, 7,
                request.struct()));
        assertThat(response.errorCode()).isEqualTo(Errors.NONE.code());
        List<Object> answers = new ArrayList<>();
        response.topics().get(0).partitions().forEach(partition -> {
            answers.add(Errors.forCode(partition.errorCode()));
            answers.add(partition.committedOffset());
        });
        return answers;
    }

    /** OffsetFetch v8 of all the group's offsets: each partition's (error, offset). */
    private List<Object> fetchAllV8(String groupId, boolean requireStable) throws IOException {
        OffsetFetchRequestView request = new OffsetFetchRequestView().requireStable(requireStable);
        request.addGroup().groupId(groupId).topics(null);
        OffsetFetchResponseView response = new OffsetFetchResponseView(client.call(ApiKey.OFFSET_FETCH, 8,
                request.struct()));
        OffsetFetchResponseView.OffsetFetchResponseGroup group = response.groups().get(0);
        assertThat(group.errorCode()).isEqualTo(Errors.NONE.code());
        List<Object> answers = new ArrayList<>();
        group.topics().forEach(topic -> topic.partitions().forEach(partition -> {
            answers.add(Errors.forCode(partition.errorCode()));
            answers.add(partition.committedOffset());
        }));
        return answers;
    }

    @Test
    void aPendingOffsetIsUnstableForRequireStableUntilTheCommitMarker() throws Exception {
        plainCommit("g", 5);
        assertThat(simpleTxnCommit("g", 10)).isEqualTo(Errors.NONE);

        assertThat(fetchV7("g", true)).containsExactly(Errors.UNSTABLE_OFFSET_COMMIT, -1L, Errors.NONE, -1L);
        assertThat(fetchV7("g", false)).as("without requireStable: the committed offset")
                .containsExactly(Errors.NONE, 5L, Errors.NONE, -1L);
        assertThat(fetchAllV8("g", true)).containsExactly(Errors.UNSTABLE_OFFSET_COMMIT, -1L);

        writeMarker(TransactionResult.COMMIT);

        assertThat(fetchV7("g", true)).containsExactly(Errors.NONE, 10L, Errors.NONE, -1L);
        assertThat(fetchAllV8("g", true)).containsExactly(Errors.NONE, 10L);
    }

    @Test
    void withoutAddOffsetsToTxnV4IsTransactionAbortableAndV0To3InvalidTxnState() throws Exception {
        TransactionalProducer other = TransactionalProducer.init(client, "other"); // no offsets partition
        producerId = other.id();
        short otherEpoch = other.epoch();
        for (int version = 0; version <= TXN_V4; version++) {
            TxnOffsetCommitRequestView request = request("g", otherEpoch, version, -1, "", null, "orders", 1, "")
                    .transactionalId("other");
            assertThat(txnCommit(request, version)).as("v%d", version).isEqualTo(version == TXN_V4
                    ? Errors.TRANSACTION_ABORTABLE : Errors.INVALID_TXN_STATE);
        }
        assertThat(fetchV7("g", true)).as("nothing written").containsExactly(Errors.NONE, -1L, Errors.NONE, -1L);
    }

    /**
     * Kafka's transaction coordinator answers the verification INVALID_PRODUCER_ID_MAPPING for a transactional id it
     * does not know or a producer id that is not the id's, and its group coordinator passes that on at every
     * version (kafkajs's suite sees it from Kafka 4.3.1).
     */
    @Test
    void anUnknownTransactionalIdOrAnotherProducerIdIsInvalidProducerIdMapping() throws Exception {
        for (int version = 0; version <= TXN_V4; version++) {
            TxnOffsetCommitRequestView unknownId = request("g", epoch, version, -1, "", null, "orders", 1, "")
                    .transactionalId("never-initialised");
            assertThat(txnCommit(unknownId, version)).as("unknown id, v%d", version)
                    .isEqualTo(Errors.INVALID_PRODUCER_ID_MAPPING);
            TxnOffsetCommitRequestView otherProducer = request("g", epoch, version, -1, "", null, "orders", 1, "")
                    .producerId(producerId + 1000);
            assertThat(txnCommit(otherProducer, version)).as("another producer id, v%d", version)
                    .isEqualTo(Errors.INVALID_PRODUCER_ID_MAPPING);
        }
        assertThat(fetchV7("g", true)).as("nothing written").containsExactly(Errors.NONE, -1L, Errors.NONE, -1L);
    }

    @Test
    void anAbortMarkerLeavesTheCommittedOffsetStable() throws Exception {
        plainCommit("g", 5);
        simpleTxnCommit("g", 10);

        writeMarker(TransactionResult.ABORT);

        assertThat(fetchV7("g", true)).containsExactly(Errors.NONE, 5L, Errors.NONE, -1L);
    }

    @Test
    void unknownTopicsAndPartitionsAndTopicIds() throws Exception {
        assertThat(txnCommit(request("g", epoch, TXN_V4, -1, "", null, "nope", 1, ""), TXN_V4))
                .isEqualTo(Errors.UNKNOWN_TOPIC_OR_PARTITION);
        TxnOffsetCommitRequestView pastTheEnd = request("g", epoch, TXN_V4, -1, "", null, "orders", 1, "");
        pastTheEnd.topics().get(0).partitions().get(0).partitionIndex(7);
        assertThat(txnCommit(pastTheEnd, TXN_V4)).isEqualTo(Errors.UNKNOWN_TOPIC_OR_PARTITION);

        TxnOffsetCommitRequestView byId = new TxnOffsetCommitRequestView().transactionalId(TRANSACTIONAL_ID)
                .groupId("g").producerId(producerId).producerEpoch(epoch).generationIdOrMemberEpoch(-1).memberId("");
        byId.addTopic().topicId(UUID.randomUUID()).addPartition().partitionIndex(0).committedOffset(1)
                .committedLeaderEpoch(-1).committedMetadata("");
        assertThat(txnCommit(byId, 6)).isEqualTo(Errors.UNKNOWN_TOPIC_ID);

        org.apache.kafka.common.Uuid ordersId;
        try (Admin admin = TestBrokers.admin(broker)) {
            ordersId = admin.describeTopics(List.of("orders")).allTopicNames().get().get("orders").topicId();
        }
        UUID known = new UUID(ordersId.getMostSignificantBits(), ordersId.getLeastSignificantBits());
        byId.topics().get(0).topicId(known);
        Struct response = client.call(ApiKey.TXN_OFFSET_COMMIT, 6, byId.struct());
        TxnOffsetCommitResponseView.TxnOffsetCommitResponseTopic topic =
                new TxnOffsetCommitResponseView(response).topics().get(0);
        assertThat(topic.topicId()).isEqualTo(known);
        // Known by its id: written in the transaction.
        assertThat(topic.partitions().get(0).errorCode()).isEqualTo(Errors.NONE.code());
        // A partition the topic known by its id does not have: UNKNOWN_TOPIC_OR_PARTITION, as Kafka's KafkaApis.
        byId.topics().get(0).partitions().get(0).partitionIndex(7);
        assertThat(txnCommit(byId, 6)).isEqualTo(Errors.UNKNOWN_TOPIC_OR_PARTITION);
        assertThat(fetchV7("g", true)).as("only the known one written, pending")
                .containsExactly(Errors.UNSTABLE_OFFSET_COMMIT, -1L, Errors.NONE, -1L);
    }

    @Test
    void anEmptyGroupIdMetadataTooLongAndAFencedEpoch() throws Exception {
        assertThat(txnCommit(request("", epoch, TXN_V4, -1, "", null, "orders", 1, ""), TXN_V4))
                .isEqualTo(Errors.INVALID_GROUP_ID);
        assertThat(txnCommit(request("g", epoch, TXN_V4, -1, "", null, "orders", 1, "m".repeat(4097)), TXN_V4))
                .isEqualTo(Errors.OFFSET_METADATA_TOO_LARGE);

        assertThat(txnCommit(request("g", epoch, TXN_V4, -1, "", null, "orders", 1, ""), TXN_V4))
                .isEqualTo(Errors.NONE);
        assertThat(txnCommit(request("g", (short) (epoch - 1), TXN_V4, -1, "", null, "orders", 2, ""), TXN_V4))
                .as("an older epoch of the producer").isEqualTo(Errors.INVALID_PRODUCER_EPOCH);
        assertThat(txnCommit(request("g", epoch, TXN_V4, -1, "", null, "orders", 2, ""), TXN_V4))
                .isEqualTo(Errors.NONE);
    }

    @Test
    void theGroupFieldsAreCheckedAsOffsetCommitChecksThemButNotTheGroupsState() throws Exception {
        assertThat(txnCommit(request("nobody", epoch, TXN_V3, 1, "m", null, "orders", 1, ""), TXN_V3))
                .as("a generation of a group that does not exist").isEqualTo(Errors.ILLEGAL_GENERATION);

        // A static member alone: its join completes the rebalance, and the group waits for its SyncGroup.
        Struct joined = client.call(ApiKey.JOIN_GROUP, JOIN_V9,
                GroupProtocolErrorsTest.joinRequest("members", "", 30_000, new byte[0]).set("GroupInstanceId", "i1"));
        assertThat(joined.getInt16("ErrorCode")).isEqualTo(Errors.NONE.code());
        String memberId = joined.getString("MemberId");
        int generation = joined.getInt32("GenerationId");
        assertThat(client.describedState("members")).isEqualTo("CompletingRebalance");

        assertThat(txnCommit(request("members", epoch, TXN_V3, generation, memberId, "i1", "orders", 1, ""),
                TXN_V3)).as("no REBALANCE_IN_PROGRESS for a transactional commit").isEqualTo(Errors.NONE);
        assertThat(txnCommit(request("members", epoch, TXN_V3, generation + 1, memberId, "i1", "orders", 1, ""),
                TXN_V3)).isEqualTo(Errors.ILLEGAL_GENERATION);
        assertThat(txnCommit(request("members", epoch, TXN_V3, generation, "stranger", null, "orders", 1, ""),
                TXN_V3)).isEqualTo(Errors.UNKNOWN_MEMBER_ID);
        assertThat(txnCommit(request("members", epoch, TXN_V3, generation, "stranger", "i1", "orders", 1, ""),
                TXN_V3)).isEqualTo(Errors.FENCED_INSTANCE_ID);
        assertThat(txnCommit(request("members", epoch, TXN_V3, -1, "", null, "orders", 1, ""), TXN_V3))
                .as("no generation and no member: accepted whatever the group's members").isEqualTo(Errors.NONE);
        assertThat(txnCommit(request("members", epoch, 2, -1, "", null, "orders", 1, ""), 2))
                .as("v2 has no group fields").isEqualTo(Errors.NONE);
        assertThat(txnCommit(request("members", epoch, 0, -1, "", null, "orders", 1, ""), 0))
                .isEqualTo(Errors.NONE);
    }
}
