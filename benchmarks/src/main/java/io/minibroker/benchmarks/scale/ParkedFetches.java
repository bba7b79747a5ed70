package io.minibroker.benchmarks.scale;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.nio.channels.SocketChannel;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.Uuid;
import org.apache.kafka.common.requests.FetchRequest;
import org.apache.kafka.common.serialization.ByteArraySerializer;

/**
 * The parked-fetch scale case of broker-perf.sh: N connections each send one long-poll Fetch (min bytes 1, max wait
 * far beyond the case) for partition 0 of TOPIC at its log end, so the broker holds N parked fetches; prints
 * {@code ready} and holds them for the given seconds while the script samples the broker's CPU; then produces one
 * record and prints {@code complete_ms=<ms from the send to the last fetch answer> early=<fetches answered before
 * the record>}.
 *
 * <p>Usage: {@code java -cp benchmarks.jar io.minibroker.benchmarks.scale.ParkedFetches HOST PORT TOPIC N SECONDS}
 */
public final class ParkedFetches {
    private static final short FETCH_VERSION = 12; // the last version that names topics rather than their ids
    private static final long COMPLETE_TIMEOUT_MS = 120_000;

    private ParkedFetches() {
    }

    public static void main(String[] args) throws Exception {
        String host = args[0];
        int port = Integer.parseInt(args[1]);
        String topic = args[2];
        int count = Integer.parseInt(args[3]);
        long holdMillis = Long.parseLong(args[4]) * 1000;
        Properties props = new Properties();
        props.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, host + ":" + port);
        props.put(ProducerConfig.ACKS_CONFIG, "1");
        props.put(ProducerConfig.LINGER_MS_CONFIG, "0");
        List<SocketChannel> open = new ArrayList<>(count);
        try (KafkaProducer<byte[], byte[]> producer =
                     new KafkaProducer<>(props, new ByteArraySerializer(), new ByteArraySerializer());
             Selector selector = Selector.open()) {
            // A first record warms the producer (metadata, connection) and gives the log end to wait at.
            long logEnd = producer.send(new ProducerRecord<>(topic, 0, null, new byte[100])).get().offset() + 1;
            ByteBuffer fetch = fetchRequest(topic, logEnd, (int) (holdMillis + COMPLETE_TIMEOUT_MS) + 60_000);
            InetSocketAddress broker = new InetSocketAddress(host, port);
            for (int i = 0; i < count; i++) {
                SocketChannel channel = SocketChannel.open(broker);
                open.add(channel);
                Wire.write(channel, fetch.duplicate());
                channel.configureBlocking(false);
                channel.register(selector, SelectionKey.OP_READ, new Answer());
            }
            System.out.println("ready");
            System.out.flush();
            Thread.sleep(holdMillis); // the measured idle window: nothing is sent
            int early = drain(selector, 0);
            long start = System.nanoTime();
            producer.send(new ProducerRecord<>(topic, 0, null, new byte[100]));
            int answered = early;
            long deadline = System.currentTimeMillis() + COMPLETE_TIMEOUT_MS;
            while (answered < count && System.currentTimeMillis() < deadline) {
                answered += drain(selector, 100);
            }
            System.out.printf("complete_ms=%.1f early=%d answered=%d%n", (System.nanoTime() - start) / 1e6, early, answered);
        } finally {
            for (SocketChannel channel : open) {
                channel.close();
            }
        }
    }

    private static ByteBuffer fetchRequest(String topic, long offset, int maxWaitMs) {
        FetchRequest.PartitionData partition =
                new FetchRequest.PartitionData(Uuid.ZERO_UUID, offset, 0, 1 << 20, Optional.empty());
        FetchRequest request = FetchRequest.Builder
                .forConsumer(FETCH_VERSION, maxWaitMs, 1, Map.of(new TopicPartition(topic, 0), partition))
                .build(FETCH_VERSION);
        return Wire.frame(request, 1);
    }

    /** Reads what has arrived (waiting up to timeoutMs, 0: not at all); returns how many answers it completed. */
    private static int drain(Selector selector, long timeoutMs) throws IOException {
        int ready = timeoutMs == 0 ? selector.selectNow() : selector.select(timeoutMs);
        int completed = 0;
        if (ready == 0) {
            return 0;
        }
        for (SelectionKey key : selector.selectedKeys()) {
            Answer answer = (Answer) key.attachment();
            if (answer.read((SocketChannel) key.channel())) {
                completed++;
                key.cancel();
            }
        }
        selector.selectedKeys().clear();
        return completed;
    }

    /** One fetch answer, read as it arrives: its size, then its body. */
    private static final class Answer {
        private final ByteBuffer size = ByteBuffer.allocate(4);
        private ByteBuffer body;

        /** True once the whole answer has been read. */
        boolean read(SocketChannel channel) throws IOException {
            if (body == null) {
                if (channel.read(size) < 0) {
                    throw new IOException("the broker closed a parked fetch's connection");
                }
                if (size.hasRemaining()) {
                    return false;
                }
                body = ByteBuffer.allocate(size.getInt(0));
            }
            if (channel.read(body) < 0) {
                throw new IOException("the broker closed a parked fetch's connection");
            }
            return !body.hasRemaining();
        }
    }
}
