package io.minibroker.benchmarks.metadata;

import io.minibroker.broker.cluster.NodeChannel;
import io.minibroker.broker.embedded.MiniCluster;
import io.minibroker.protocol.error.Errors;
import io.minibroker.protocol.message.ApiKey;
import io.minibroker.protocol.message.view.CreateTopicsRequestView;
import io.minibroker.protocol.message.view.CreateTopicsResponseView;
import io.minibroker.protocol.message.view.MetadataRequestView;
import io.minibroker.protocol.message.view.MetadataResponseView;
import io.minibroker.protocol.schema.Struct;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;

/**
 * How long a change the controller made takes to reach every broker of a three-node cluster (in this JVM, Kafka's
 * default heartbeat interval and session timeout), measured from the answer to the admin request that made it
 * until each broker's own Metadata answer shows it:
 * <ul>
 *   <li>{@code create}: a topic's CreateTopics answer, until every broker names the topic with its leader;</li>
 *   <li>{@code elect}: a preferred ElectLeaders answer that moves the topic's leader back to its first replica
 *       (after that node was stopped and restarted), until every broker names the new leader.</li>
 * </ul>
 * Each topic has one partition on replicas [1, 2, 0]; the admin requests go to node 2, which forwards them. The
 * brokers are polled with Metadata one after the other, as fast as they answer. Prints p50, p99 and max per phase,
 * and of CreateTopics' own round trip ({@code create_answer}), which waits for the replicas to apply the topic.
 * <pre>
 *   benchmarks/metadata-propagation.sh    (builds the jar, then runs this)
 *   java -cp benchmarks.jar io.minibroker.benchmarks.metadata.MetadataPropagation [--topics N]
 * </pre>
 */
public final class MetadataPropagation {

    private static final int NODES = 3;
    /** The node that leads every topic at first and again after the preferred elections. */
    private static final int PREFERRED = 1;
    private static final int ADMIN_NODE = 2;
    private static final int TIMEOUT_MS = 30_000;
    /** ElectLeaders' election type PREFERRED. */
    private static final byte PREFERRED_ELECTION = 0;

    private final MiniCluster cluster;
    private final NodeChannel[] channels = new NodeChannel[NODES];
    /** The last CreateTopics' round trip, in µs: what the client waited for its answer. */
    private long lastAnswerMicros;

    private MetadataPropagation(MiniCluster cluster) {
        this.cluster = cluster;
        for (int node = 0; node < NODES; node++) {
            connect(node);
        }
    }

    public static void main(String[] args) throws Exception {
        int topics = 100;
        for (int i = 0; i < args.length; i++) {
            if (args[i].equals("--topics")) {
                topics = Integer.parseInt(args[++i]);
            } else {
                throw new IllegalArgumentException("usage: MetadataPropagation [--topics N]");
            }
        }
        // No automatic rebalance: only the benchmark's ElectLeaders moves leaders back.
        try (MiniCluster cluster = MiniCluster.start(NODES, Map.of("auto.leader.rebalance.enable", "false"))) {
            MetadataPropagation bench = new MetadataPropagation(cluster);
            bench.waitUntil(() -> cluster.controller().membership().liveBrokers().size() == NODES,
                    "three live brokers");
            List<String> names = new ArrayList<>();
            long[] create = new long[topics];
            long[] answer = new long[topics];
            for (int i = 0; i < topics; i++) {
                String topic = "propagation-" + i;
                names.add(topic);
                long sent = System.nanoTime();
                create[i] = bench.createAndTime(topic, sent);
                answer[i] = bench.lastAnswerMicros;
            }
            report("create", create);
            report("create_answer", answer);

            cluster.stop(PREFERRED);
            bench.waitUntil(() -> bench.allLedBy(names, ADMIN_NODE, 0, 2), "node 2 to lead every topic");
            cluster.restart(PREFERRED);
            bench.connect(PREFERRED);
            bench.waitUntil(() -> bench.allInSync(names), "node 1 back in every ISR");
            long[] elect = new long[topics];
            for (int i = 0; i < topics; i++) {
                elect[i] = bench.electAndTime(names.get(i));
            }
            report("elect", elect);
            System.out.println("# elect includes the new leader's own apply, which writes and fsyncs its"
                    + " leader-epoch checkpoint before it names itself leader (as Kafka's makeLeader does)");
            bench.closeChannels();
        }
    }

    private void connect(int node) {
        if (channels[node] != null) {
            channels[node].close();
        }
        channels[node] = new NodeChannel("localhost", cluster.node(node).boundPort("PLAINTEXT"),
                "metadata-propagation", TIMEOUT_MS);
    }

    private void closeChannels() {
        Arrays.stream(channels).forEach(NodeChannel::close);
    }

    /**
     * Creates the topic through node 2 (the request sent at {@code sentNanos}); answers the µs from the answer until
     * every broker names it with leader 1.
     */
    private long createAndTime(String topic, long sentNanos) throws IOException {
        CreateTopicsRequestView request = new CreateTopicsRequestView().timeoutMs(TIMEOUT_MS);
        CreateTopicsRequestView.CreatableTopic creatable = request.addTopic().name(topic).numPartitions(-1)
                .replicationFactor((short) -1);
        creatable.addAssignment().partitionIndex(0).brokerIds(List.of(PREFERRED, ADMIN_NODE, 0));
        CreateTopicsResponseView response = new CreateTopicsResponseView(
                channels[ADMIN_NODE].send(ApiKey.CREATE_TOPICS, request.struct()));
        long answered = System.nanoTime();
        lastAnswerMicros = (answered - sentNanos) / 1_000;
        Errors error = Errors.forCode(response.topics().get(0).errorCode());
        if (error != Errors.NONE) {
            throw new IllegalStateException("CreateTopics " + topic + ": " + error);
        }
        return awaitLeader(topic, PREFERRED, answered);
    }

    /** Elects topic's preferred leader through node 2; answers the µs from the answer until every broker names it. */
    private long electAndTime(String topic) throws IOException, InterruptedException {
        Struct request = ApiKey.ELECT_LEADERS.request().newMessage().set("ElectionType", PREFERRED_ELECTION)
                .set("TimeoutMs", TIMEOUT_MS);
        request.addElement("TopicPartitions").set("Topic", topic).set("Partitions", List.of(0));
        Struct response = channels[ADMIN_NODE].send(ApiKey.ELECT_LEADERS, request);
        long answered = System.nanoTime();
        Struct result = response.getStructs("ReplicaElectionResults").get(0).getStructs("PartitionResult").get(0);
        Errors error = Errors.forCode(result.getInt16("ErrorCode"));
        if (error != Errors.NONE) {
            throw new IllegalStateException("ElectLeaders " + topic + ": " + error);
        }
        return awaitLeader(topic, PREFERRED, answered);
    }

    /** Polls every broker until each names {@code leader} for the topic's partition; µs since {@code sinceNanos}. */
    private long awaitLeader(String topic, int leader, long sinceNanos) throws IOException {
        boolean[] seen = new boolean[NODES];
        int remaining = NODES;
        while (remaining > 0) {
            if (System.nanoTime() - sinceNanos > TIMEOUT_MS * 1_000_000L) {
                throw new IllegalStateException(topic + ": not every broker names leader " + leader);
            }
            for (int node = 0; node < NODES; node++) {
                if (!seen[node] && leaderAt(node, topic) == leader) {
                    seen[node] = true;
                    remaining--;
                }
            }
        }
        return (System.nanoTime() - sinceNanos) / 1_000;
    }

    /** The topic's partition 0 leader in this broker's Metadata answer; -1 when it has none or the topic is unknown. */
    private int leaderAt(int node, String topic) throws IOException {
        MetadataRequestView request = new MetadataRequestView().allowAutoTopicCreation(false);
        request.addTopic().name(topic);
        MetadataResponseView response = new MetadataResponseView(channels[node].send(ApiKey.METADATA,
                request.struct()));
        MetadataResponseView.MetadataResponseTopic answer = response.topics().get(0);
        if (answer.errorCode() != Errors.NONE.code() || answer.partitions().isEmpty()) {
            return -1;
        }
        return answer.partitions().get(0).leaderId();
    }

    private boolean allLedBy(List<String> topics, int leader, int... nodes) {
        try {
            for (int node : nodes) {
                for (String topic : topics) {
                    if (leaderAt(node, topic) != leader) {
                        return false;
                    }
                }
            }
            return true;
        } catch (IOException e) {
            return false;
        }
    }

    /** Whether node 0's image has node 1 in every topic's ISR, so that it may lead again. */
    private boolean allInSync(List<String> topics) {
        try {
            MetadataRequestView request = new MetadataRequestView().allowAutoTopicCreation(false);
            topics.forEach(topic -> request.addTopic().name(topic));
            MetadataResponseView response = new MetadataResponseView(channels[0].send(ApiKey.METADATA,
                    request.struct()));
            return response.topics().stream().allMatch(topic -> topic.partitions().stream()
                    .allMatch(partition -> partition.isrNodes().contains(PREFERRED)));
        } catch (IOException e) {
            return false;
        }
    }

    private interface Condition {
        boolean holds() throws Exception;
    }

    private void waitUntil(Condition condition, String what) throws Exception {
        long deadline = System.nanoTime() + 60_000_000_000L;
        while (!condition.holds()) {
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException("timed out waiting for " + what);
            }
            Thread.sleep(50); // setting up, not measuring: a coarse poll is enough
        }
    }

    /** Prints the phase's p50, p99 and max in ms (nearest rank), from delays in µs. */
    private static void report(String phase, long[] micros) {
        long[] sorted = micros.clone();
        Arrays.sort(sorted);
        System.out.printf("phase=%s topics=%d p50_ms=%.1f p99_ms=%.1f max_ms=%.1f%n", phase, sorted.length,
                rank(sorted, 0.50) / 1000.0, rank(sorted, 0.99) / 1000.0, sorted[sorted.length - 1] / 1000.0);
    }

    private static long rank(long[] sorted, double quantile) {
        return sorted[Math.max(0, (int) Math.ceil(quantile * sorted.length) - 1)];
    }
}
