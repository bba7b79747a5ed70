package io.minibroker.broker.replica;

import io.minibroker.protocol.record.RecordBatches;
import io.minibroker.protocol.schema.Struct;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.common.serialization.StringSerializer;

import java.util.Map;

/** What the replica tests that fetch on the wire share: counting the records of an answer, and an acks=all producer. */
final class WireFetches {

    private WireFetches() {
    }

    /** How many records a Fetch answer's partition carries. */
    static int recordCount(Struct partition) {
        int count = 0;
        for (RecordBatches batches = RecordBatches.of(partition.getRecords("Records")); batches.hasNext(); ) {
            count += batches.next().recordCount();
        }
        return count;
    }

    /** An acks=all producer whose requests give up after 3 s and deliveries after 60 s. */
    static KafkaProducer<String, String> acksAllProducer(String bootstrap) {
        return new KafkaProducer<>(Map.of(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap,
                ProducerConfig.ACKS_CONFIG, "all", ProducerConfig.REQUEST_TIMEOUT_MS_CONFIG, "3000",
                ProducerConfig.DELIVERY_TIMEOUT_MS_CONFIG, "60000"), new StringSerializer(), new StringSerializer());
    }
}
