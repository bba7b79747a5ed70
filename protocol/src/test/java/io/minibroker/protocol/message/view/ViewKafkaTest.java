package io.minibroker.protocol.message.view;

import static org.assertj.core.api.Assertions.assertThat;

import io.minibroker.protocol.message.ApiKey;
import io.minibroker.protocol.schema.MessageSchema;
import io.minibroker.protocol.schema.Struct;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Iterator;
import java.util.List;
import java.util.Random;
import java.util.UUID;
import java.util.stream.Stream;
import org.apache.kafka.common.Uuid;
import org.apache.kafka.common.protocol.ByteBufferAccessor;
import org.apache.kafka.common.record.internal.MemoryRecords;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

/**
 * Every getter of every typed view returns what Kafka's accessor of the same name returns, for messages
 * Kafka parsed from the same bytes, in every version.
 */
class ViewKafkaTest {
    /** Every API has its views. */
    private static final ApiKey[] VIEWED = ApiKey.values();

    @TestFactory
    Stream<DynamicTest> viewsAgreeWithKafkaAccessors() {
        List<DynamicTest> tests = new ArrayList<>();
        for (ApiKey api : VIEWED) {
            for (MessageSchema schema : new MessageSchema[] {api.request(), api.response()}) {
                tests.add(DynamicTest.dynamicTest(schema.name(), () -> {
                    for (short v = api.lowestVersion(); v <= api.highestVersion(); v++) {
                        for (int seed = 0; seed < 3; seed++) {
                            check(schema, v, new Random(seed * 100L + v));
                        }
                    }
                }));
            }
        }
        return tests.stream();
    }

    private static void check(MessageSchema schema, short version, Random random) throws Exception {
        Struct struct = RandomFill.fill(schema.body(), version, random);
        ByteBuf bytes = Unpooled.buffer();
        schema.write(bytes, struct, version);
        Object kafka = Class.forName("org.apache.kafka.common.message." + schema.name() + "Data")
                .getConstructor(org.apache.kafka.common.protocol.Readable.class, short.class)
                .newInstance(new ByteBufferAccessor(bytes.nioBuffer()), version);
        Object view = Class.forName(ViewKafkaTest.class.getPackageName() + "." + schema.name() + "View")
                .getConstructor(Struct.class).newInstance(struct);
        assertSame(view, kafka, schema.name() + " v" + version);
    }

    private static void assertSame(Object view, Object kafka, String path) throws Exception {
        for (Method getter : view.getClass().getMethods()) {
            if (getter.getParameterCount() != 0 || getter.getDeclaringClass() != view.getClass()
                    || Modifier.isStatic(getter.getModifiers()) || getter.getName().equals("struct")
                    || isElementAdder(getter)) {
                continue;
            }
            Object ours = getter.invoke(view);
            Object theirs = kafka.getClass().getMethod(getter.getName()).invoke(kafka);
            assertSameValue(ours, theirs, path + "." + getter.getName());
        }
    }

    /** {@code addTopic()} and the like append an element; they are builders, not getters. */
    private static boolean isElementAdder(Method method) {
        return method.getName().matches("add[A-Z].*") && method.getReturnType().getEnclosingClass() != null
                && method.getReturnType().getPackage() == ViewKafkaTest.class.getPackage();
    }

    private static void assertSameValue(Object ours, Object theirs, String path) throws Exception {
        if (ours == null || theirs == null) {
            assertThat(ours).as(path).isNull();
            assertThat(theirs).as(path).isNull();
        } else if (ours instanceof List) {
            List<?> list = (List<?>) ours;
            assertThat((Collection<?>) theirs).as(path).hasSize(list.size());
            Iterator<?> it = ((Collection<?>) theirs).iterator();
            for (int i = 0; i < list.size(); i++) {
                assertSameValue(list.get(i), it.next(), path + "[" + i + "]");
            }
        } else if (ours.getClass().getPackage() == ViewKafkaTest.class.getPackage()) {
            assertSame(ours, theirs, path);
        } else if (ours instanceof UUID) {
            Uuid uuid = (Uuid) theirs;
            assertThat(ours).as(path).isEqualTo(new UUID(uuid.getMostSignificantBits(), uuid.getLeastSignificantBits()));
        } else if (ours instanceof ByteBuf) {
            ByteBuffer buffer = ((MemoryRecords) theirs).buffer();
            assertThat(ours).as(path).isEqualTo(Unpooled.wrappedBuffer(buffer));
        } else if (ours instanceof byte[] && theirs instanceof ByteBuffer zeroCopy) { // Envelope's "zeroCopy" bytes
            byte[] bytes = new byte[zeroCopy.remaining()];
            zeroCopy.duplicate().get(bytes);
            assertThat((byte[]) ours).as(path).isEqualTo(bytes);
        } else if (ours instanceof byte[]) {
            assertThat((byte[]) ours).as(path).isEqualTo((byte[]) theirs);
        } else {
            assertThat(ours).as(path).isEqualTo(theirs);
        }
    }

    @org.junit.jupiter.api.Test
    void responsesBuiltThroughViewsParseInKafka() {
        MetadataResponseView response = new MetadataResponseView().clusterId("c-1").controllerId(2);
        response.addBroker().nodeId(2).host("h").port(9092).rack(null);
        MetadataResponseView.MetadataResponseTopic topic = response.addTopic().name("orders").topicId(new UUID(1, 2));
        topic.addPartition().partitionIndex(0).leaderId(2).leaderEpoch(5).replicaNodes(List.of(2)).isrNodes(List.of(2));
        short version = 12;
        ByteBuf bytes = Unpooled.buffer();
        ApiKey.METADATA.response().write(bytes, response.struct(), version);
        org.apache.kafka.common.message.MetadataResponseData kafka =
                new org.apache.kafka.common.message.MetadataResponseData(new ByteBufferAccessor(bytes.nioBuffer()), version);
        assertThat(kafka.clusterId()).isEqualTo("c-1");
        assertThat(kafka.brokers().find(2).port()).isEqualTo(9092);
        assertThat(kafka.topics().find("orders").partitions().get(0).leaderEpoch()).isEqualTo(5);
        assertThat(kafka.topics().find("orders").topicId()).isEqualTo(new Uuid(1, 2));
    }

    /** What a follower sends and reads, and what a leader sends its controller, built as the broker builds them. */
    @org.junit.jupiter.api.Test
    void replicationMessagesBuiltThroughViewsParseInKafka() {
        UUID topicId = new UUID(3, 4);
        FetchRequestView fetch = new FetchRequestView().maxWaitMs(500).minBytes(1);
        fetch.replicaState().replicaId(2).replicaEpoch(7);
        fetch.addTopic().topicId(topicId).addPartition().partition(0).fetchOffset(42).lastFetchedEpoch(5).currentLeaderEpoch(6);
        org.apache.kafka.common.message.FetchRequestData fetchData =
                new org.apache.kafka.common.message.FetchRequestData(kafkaBytes(ApiKey.FETCH.request(), fetch.struct(), 17), (short) 17);
        assertThat(fetchData.replicaState().replicaId()).isEqualTo(2);
        assertThat(fetchData.replicaState().replicaEpoch()).isEqualTo(7);
        assertThat(fetchData.topics().get(0).partitions().get(0).lastFetchedEpoch()).isEqualTo(5);
        org.apache.kafka.common.message.FetchRequestData oldFetch = new org.apache.kafka.common.message.FetchRequestData(
                kafkaBytes(ApiKey.FETCH.request(), new FetchRequestView().replicaId(2).struct(), 14), (short) 14);
        assertThat(oldFetch.replicaId()).isEqualTo(2);

        FetchResponseView fetched = new FetchResponseView();
        FetchResponseView.PartitionData partition = fetched.addResponse().topicId(topicId).addPartition()
                .partitionIndex(0).highWatermark(40).logStartOffset(3);
        partition.divergingEpoch().epoch(4).endOffset(30);
        partition.currentLeader().leaderId(1).leaderEpoch(6);
        org.apache.kafka.common.message.FetchResponseData.PartitionData kafkaPartition =
                new org.apache.kafka.common.message.FetchResponseData(kafkaBytes(ApiKey.FETCH.response(), fetched.struct(), 17), (short) 17)
                        .responses().get(0).partitions().get(0);
        assertThat(kafkaPartition.highWatermark()).isEqualTo(40);
        assertThat(kafkaPartition.logStartOffset()).isEqualTo(3);
        assertThat(kafkaPartition.divergingEpoch().endOffset()).isEqualTo(30);
        assertThat(kafkaPartition.currentLeader().leaderEpoch()).isEqualTo(6);

        AlterPartitionRequestView alter = new AlterPartitionRequestView().brokerId(1).brokerEpoch(9);
        AlterPartitionRequestView.PartitionData isr = alter.addTopic().topicId(topicId).addPartition()
                .partitionIndex(0).leaderEpoch(6).partitionEpoch(11);
        isr.addNewIsrWithEpoch().brokerId(1).brokerEpoch(9);
        isr.addNewIsrWithEpoch().brokerId(2).brokerEpoch(7);
        org.apache.kafka.common.message.AlterPartitionRequestData alterData = new org.apache.kafka.common.message.AlterPartitionRequestData(
                kafkaBytes(ApiKey.ALTER_PARTITION.request(), alter.struct(), 3), (short) 3);
        assertThat(alterData.topics().get(0).topicId()).isEqualTo(new Uuid(3, 4));
        assertThat(alterData.topics().get(0).partitions().get(0).newIsrWithEpochs().get(1).brokerEpoch()).isEqualTo(7);

        BrokerRegistrationRequestView registration = new BrokerRegistrationRequestView().brokerId(2).clusterId("c-1")
                .incarnationId(new UUID(5, 6)).rack(null);
        registration.addListener().name("PLAINTEXT").host("h").port(65535).securityProtocol((short) 0);
        org.apache.kafka.common.message.BrokerRegistrationRequestData registrationData =
                new org.apache.kafka.common.message.BrokerRegistrationRequestData(
                        kafkaBytes(ApiKey.BROKER_REGISTRATION.request(), registration.struct(), 4), (short) 4);
        assertThat(registrationData.listeners().find("PLAINTEXT").port()).isEqualTo(65535);
        assertThat(registrationData.previousBrokerEpoch()).isEqualTo(-1);

        BrokerHeartbeatResponseView heartbeat = new BrokerHeartbeatResponseView();
        assertThat(heartbeat.isFenced()).isTrue();
        org.apache.kafka.common.message.BrokerHeartbeatResponseData heartbeatData =
                new org.apache.kafka.common.message.BrokerHeartbeatResponseData(
                        kafkaBytes(ApiKey.BROKER_HEARTBEAT.response(), heartbeat.isCaughtUp(true).isFenced(false).struct(), 2), (short) 2);
        assertThat(heartbeatData.isCaughtUp()).isTrue();
        assertThat(heartbeatData.isFenced()).isFalse();
    }

    @org.junit.jupiter.api.Test
    void structArraysAreSetAsListsOfViewsOrNull() {
        DescribeClientQuotasResponseView refused = new DescribeClientQuotasResponseView().errorCode((short) 42).entries(null);
        assertThat(refused.entries()).isNull();
        assertThat(new org.apache.kafka.common.message.DescribeClientQuotasResponseData(
                kafkaBytes(ApiKey.DESCRIBE_CLIENT_QUOTAS.response(), refused.struct(), 1), (short) 1).entries()).isNull();

        DescribeClientQuotasResponseView.EntryData entry = new DescribeClientQuotasResponseView.EntryData();
        entry.addEntity().entityType("user").entityName("alice");
        DescribeClientQuotasResponseView answered = new DescribeClientQuotasResponseView().entries(List.of(entry));
        answered.entries().get(0).addValue().key("producer_byte_rate").value(1024.0);
        assertThat(answered.entries().get(0).struct()).isSameAs(entry.struct());
        org.apache.kafka.common.message.DescribeClientQuotasResponseData answeredData =
                new org.apache.kafka.common.message.DescribeClientQuotasResponseData(
                        kafkaBytes(ApiKey.DESCRIBE_CLIENT_QUOTAS.response(), answered.struct(), 1), (short) 1);
        assertThat(answeredData.entries().get(0).entity().get(0).entityName()).isEqualTo("alice");
        assertThat(answeredData.entries().get(0).values().get(0).value()).isEqualTo(1024.0);
        answered.addEntry(); // the list set is the struct's own, so it grows
        assertThat(answered.entries()).hasSize(2);
    }

    private static ByteBufferAccessor kafkaBytes(MessageSchema schema, Struct body, int version) {
        ByteBuf bytes = Unpooled.buffer();
        schema.write(bytes, body, (short) version);
        return new ByteBufferAccessor(bytes.nioBuffer());
    }
}
