package io.minibroker.broker.fetch;

import io.minibroker.broker.server.Broker;
import io.minibroker.broker.server.TestBrokers;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.ListOffsetsResult.ListOffsetsResultInfo;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/** AdminClient.listOffsets(OffsetSpec.maxTimestamp()) against batches whose latest record is not their last. */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class ListOffsetsMaxTimestampTest {

    private static final long T0 = 1_700_000_000_000L;

    @TempDir
    Path logDir;
    private Broker broker;

    @BeforeEach
    void start() throws Exception {
        broker = TestBrokers.start(logDir, Map.of());
    }

    @AfterEach
    void stop() throws Exception {
        broker.close();
    }

    @Test
    void answersTheFirstRecordCarryingTheLargestTimestampInAnUncompressedOrCompressedBatch() throws Exception {
        String bootstrap = "localhost:" + broker.boundPort("PLAINTEXT");
        try (Admin admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap))) {
            for (String compression : List.of("none", "gzip")) {
                admin.createTopics(List.of(new NewTopic(compression, 1, (short) 1))).all().get();
                produceOneBatch(bootstrap, compression);

                TopicPartition partition = new TopicPartition(compression, 0);
                ListOffsetsResultInfo latest = admin.listOffsets(Map.of(partition, OffsetSpec.maxTimestamp()))
                        .partitionResult(partition).get();
                assertThat(latest.timestamp()).as(compression).isEqualTo(T0 + 500);
                assertThat(latest.offset()).as("%s: the record at offset 1 first carries it, not the last (4)",
                        compression).isEqualTo(1);
            }
        }
    }

    /** Timestamps T0+1, T0+500, T0+3, T0+500, T0+5, sent together and flushed as one batch. */
    private static void produceOneBatch(String bootstrap, String compression) {
        try (KafkaProducer<String, String> producer = new KafkaProducer<>(Map.of(
                ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap,
                ProducerConfig.COMPRESSION_TYPE_CONFIG, compression,
                ProducerConfig.LINGER_MS_CONFIG, 60_000,
                ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, StringSerializer.class,
                ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, StringSerializer.class))) {
            for (int i = 0; i < 5; i++) {
                long timestamp = i % 2 == 1 ? T0 + 500 : T0 + i;
                producer.send(new ProducerRecord<>(compression, 0, timestamp, null, "v" + i));
            }
            producer.flush();
        }
    }
}
