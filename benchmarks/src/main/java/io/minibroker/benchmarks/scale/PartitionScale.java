package io.minibroker.benchmarks.scale;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.channels.SocketChannel;
import java.util.Arrays;
import java.util.List;
import org.apache.kafka.common.message.MetadataResponseData.MetadataResponsePartition;
import org.apache.kafka.common.message.MetadataResponseData.MetadataResponseTopic;
import org.apache.kafka.common.protocol.Errors;
import org.apache.kafka.common.requests.MetadataRequest;
import org.apache.kafka.common.requests.MetadataResponse;

/**
 * The partition scale case of broker-perf.sh, two modes:
 * <ul>
 *   <li>{@code ready HOST PORT TOPIC PARTITIONS SINCE_EPOCH_MS}: polls Metadata for the topic until every one of its
 *   partitions has a leader, and prints the milliseconds since SINCE_EPOCH_MS (the broker's launch): its start time
 *   as a client sees it.</li>
 *   <li>{@code metadata HOST PORT TOPIC REQUESTS}: that many Metadata requests for the topic, one at a time on one
 *   connection, after as many again as warm-up (the broker has just started: its JIT is cold); prints
 *   {@code p50_ms p99_ms}.</li>
 * </ul>
 */
public final class PartitionScale {
    private static final long READY_TIMEOUT_MS = 300_000;

    private PartitionScale() {
    }

    public static void main(String[] args) throws Exception {
        InetSocketAddress broker = new InetSocketAddress(args[1], Integer.parseInt(args[2]));
        String topic = args[3];
        switch (args[0]) {
            case "ready" -> System.out.println(awaitReady(broker, topic, Integer.parseInt(args[4])) - Long.parseLong(args[5]));
            case "metadata" -> latency(broker, topic, Integer.parseInt(args[4]));
            default -> throw new IllegalArgumentException("mode ready or metadata, not " + args[0]);
        }
    }

    /** The wall-clock time at which the topic first answered with a leader for each of its partitions. */
    private static long awaitReady(InetSocketAddress broker, String topic, int partitions) throws Exception {
        long deadline = System.currentTimeMillis() + READY_TIMEOUT_MS;
        int correlationId = 0;
        while (System.currentTimeMillis() < deadline) {
            try (SocketChannel channel = SocketChannel.open(broker)) {
                while (System.currentTimeMillis() < deadline) {
                    if (led(metadata(channel, topic, correlationId++)) == partitions) {
                        return System.currentTimeMillis();
                    }
                    Thread.sleep(10); // polling a starting broker: the next look
                }
            } catch (IOException notListeningYet) {
                Thread.sleep(10);
            }
        }
        throw new IllegalStateException(topic + " did not get leaders for " + partitions + " partitions in time");
    }

    private static void latency(InetSocketAddress broker, String topic, int requests) throws IOException {
        int warmUp = requests;
        long[] nanos = new long[requests];
        try (SocketChannel channel = SocketChannel.open(broker)) {
            for (int i = -warmUp; i < requests; i++) {
                long start = System.nanoTime();
                metadata(channel, topic, i + warmUp);
                if (i >= 0) {
                    nanos[i] = System.nanoTime() - start;
                }
            }
        }
        Arrays.sort(nanos);
        System.out.printf("%.3f %.3f%n", nanos[requests / 2] / 1e6, nanos[(int) (requests * 0.99)] / 1e6);
    }

    private static MetadataResponseTopic metadata(SocketChannel channel, String topic, int correlationId)
            throws IOException {
        MetadataRequest request = new MetadataRequest.Builder(List.of(topic), false).build((short) 12);
        MetadataResponse response = (MetadataResponse) Wire.roundTrip(channel, request, correlationId);
        return response.data().topics().iterator().next();
    }

    private static long led(MetadataResponseTopic topic) {
        if (topic.errorCode() != Errors.NONE.code()) {
            return 0;
        }
        return topic.partitions().stream().filter(p -> p.errorCode() == Errors.NONE.code())
                .mapToInt(MetadataResponsePartition::leaderId).filter(leader -> leader >= 0).count();
    }
}
