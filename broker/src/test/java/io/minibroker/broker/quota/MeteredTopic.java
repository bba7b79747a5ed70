package io.minibroker.broker.quota;

import io.minibroker.broker.server.Broker;
import io.minibroker.broker.server.TestBrokers;
import io.minibroker.protocol.header.RequestHeader;
import io.minibroker.protocol.message.ApiKey;
import io.minibroker.protocol.message.MessageCodec;
import io.minibroker.protocol.record.CompressionType;
import io.minibroker.protocol.record.RecordBatchBuilder;
import io.minibroker.protocol.schema.Struct;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.common.quota.ClientQuotaAlteration;
import org.apache.kafka.common.quota.ClientQuotaEntity;

import java.util.List;
import java.util.Map;

/** The throttling tests' topic, one partition, and the raw Produce requests they send to it. */
final class MeteredTopic {

    static final String NAME = "metered";
    static final short PRODUCE_V9 = 9;

    private MeteredTopic() {
    }

    /** Creates the topic and sets one quota of a client id. */
    static void create(Broker broker, String clientId, String key, double value) throws Exception {
        try (Admin admin = TestBrokers.admin(broker)) {
            admin.createTopics(List.of(new NewTopic(NAME, 1, (short) 1))).all().get();
            admin.alterClientQuotas(List.of(new ClientQuotaAlteration(
                    new ClientQuotaEntity(Map.of("client-id", clientId)),
                    List.of(new ClientQuotaAlteration.Op(key, value))))).all().get();
        }
    }

    /** A Produce v9 (acks=1) of one record holding {@code value}, encoded with its size prefix. */
    static byte[] produceRequest(String clientId, byte[] value) {
        ByteBuf records = new RecordBatchBuilder(ByteBufAllocator.DEFAULT, CompressionType.NONE, 0, 0)
                .append(0, null, value, List.of()).build();
        Struct body = ApiKey.PRODUCE.request().newMessage().set("Acks", (short) 1).set("TimeoutMs", 5000);
        body.addElement("TopicData").set("Name", NAME).addElement("PartitionData").set("Index", 0)
                .set("Records", records);
        try {
            return MessageCodec.encodeRequestToArray(new RequestHeader(ApiKey.PRODUCE.id(), PRODUCE_V9, 1, clientId),
                    body);
        } finally {
            records.release();
        }
    }
}
