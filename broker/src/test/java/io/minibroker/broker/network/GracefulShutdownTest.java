package io.minibroker.broker.network;

import io.minibroker.broker.server.Broker;
import io.minibroker.broker.server.TestBrokers;
import io.minibroker.protocol.error.Errors;
import io.minibroker.protocol.message.ApiKey;
import io.minibroker.protocol.schema.Struct;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Closing the broker answers what is parked before the connections go: the client reads its response, then the
 * end of the stream. (An acks=all produce cannot be parked on one node: its high watermark is the log end, so it
 * completes on its first try.)
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class GracefulShutdownTest {

    private static final short FETCH_V12 = 12;
    private static final short JOIN_V9 = 9;

    @TempDir
    Path logDir;

    @Test
    void aParkedFetchAndAParkedJoinAreAnsweredBeforeTheirConnectionsClose() throws Exception {
        // The first join of a group waits the whole initial delay: long enough to be parked at close.
        Broker broker = TestBrokers.start(logDir, Map.of("group.initial.rebalance.delay.ms", "60000"));
        int port = broker.boundPort("PLAINTEXT");
        try (RawClient fetcher = new RawClient(port); RawClient joiner = new RawClient(port)) {
            Struct createQuiet = ApiKey.METADATA.request().newMessage().set("AllowAutoTopicCreation", true);
            createQuiet.addElement("Topics").set("Name", "quiet");
            fetcher.send(RawClient.request(ApiKey.METADATA, (short) 12, 1, createQuiet));
            fetcher.receive(ApiKey.METADATA, (short) 12);
            fetcher.send(RawClient.request(ApiKey.FETCH, FETCH_V12, 2, longPollFromTheStart("quiet")));
            joiner.send(RawClient.request(ApiKey.JOIN_GROUP, JOIN_V9, 1, staticJoin("slow-group")));
            awaitParked(broker, "Fetch");
            awaitParked(broker, "Rebalance");

            CompletableFuture<Void> closing = CompletableFuture.runAsync(broker::close);

            Struct fetched = fetcher.receive(ApiKey.FETCH, FETCH_V12).body();
            Struct partition = fetched.getStructs("Responses").get(0).getStructs("Partitions").get(0);
            assertThat(partition.getInt16("ErrorCode")).as("a fetch completed early is answered with what it has")
                    .isEqualTo(Errors.NONE.code());
            assertThat(partition.getInt64("HighWatermark")).isZero();
            Struct joined = joiner.receive(ApiKey.JOIN_GROUP, JOIN_V9).body();
            assertThat(joined.getInt16("ErrorCode")).isEqualTo(Errors.NOT_COORDINATOR.code());
            assertThat(fetcher.closedByBroker()).isTrue();
            assertThat(joiner.closedByBroker()).isTrue();
            closing.get(30, TimeUnit.SECONDS);
        } finally {
            broker.close();
        }
    }

    private static Struct longPollFromTheStart(String topic) {
        Struct fetch = ApiKey.FETCH.request().newMessage().set("ReplicaId", -1).set("MaxWaitMs", 60_000)
                .set("MinBytes", 1).set("MaxBytes", 1 << 20).set("SessionEpoch", -1);
        fetch.addElement("Topics").set("Topic", topic).addElement("Partitions").set("Partition", 0)
                .set("FetchOffset", 0L).set("PartitionMaxBytes", 1 << 20);
        return fetch;
    }

    private static Struct staticJoin(String groupId) {
        Struct join = ApiKey.JOIN_GROUP.request().newMessage()
                .set("GroupId", groupId).set("SessionTimeoutMs", 30_000).set("RebalanceTimeoutMs", 30_000)
                .set("MemberId", "").set("GroupInstanceId", "host-1").set("ProtocolType", "consumer");
        join.addElement("Protocols").set("Name", "range").set("Metadata", new byte[0]);
        return join;
    }

    private static void awaitParked(Broker broker, String purgatory) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (broker.meterRegistry().get("purgatory.delayed.operations").tag("delayedOperation", purgatory)
                .gauge().value() < 1) {
            assertThat(System.nanoTime()).as("a " + purgatory + " operation parked").isLessThan(deadline);
            Thread.sleep(10);
        }
    }
}
