package io.minibroker.broker.fetch;

import com.sun.management.ThreadMXBean;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.minibroker.broker.api.PartitionLeadership;
import io.minibroker.broker.api.TestContexts;
import io.minibroker.broker.config.BrokerConfig;
import io.minibroker.broker.fetch.session.TestFetchSessions;
import io.minibroker.broker.log.LogReadResult;
import io.minibroker.broker.log.PartitionLog;
import io.minibroker.broker.log.TestLogs;
import io.minibroker.broker.metrics.BrokerTopicMetrics;
import io.minibroker.broker.topic.TopicRegistry;
import io.minibroker.protocol.header.RequestHeader;
import io.minibroker.protocol.message.ApiKey;
import io.minibroker.protocol.message.Request;
import io.minibroker.protocol.message.view.FetchRequestView;
import io.minibroker.protocol.schema.RecordsPayload;
import io.minibroker.protocol.schema.Struct;
import io.minibroker.purgatory.Purgatory;
import io.minibroker.purgatory.time.ManualClock;

import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.Comparator;
import java.util.Map;
import java.util.stream.Stream;

/**
 * Heap bytes allocated per log read and per Fetch request answered at once, in process, on one thread (the JVM's
 * count of the thread's allocations): not a test, a measurement to compare builds by, run as in
 * docs/performance.md. Prints {@code read_bytes=… fetch_bytes=…}, averages over the last of several rounds.
 */
public final class FetchAllocations {
    private static final int ROUNDS = 5;
    private static final int PER_ROUND = 20_000;

    private FetchAllocations() {
    }

    public static void main(String[] args) throws Exception {
        ThreadMXBean threads = (ThreadMXBean) ManagementFactory.getThreadMXBean();
        long thread = Thread.currentThread().getId();
        Path dir = Files.createTempDirectory("fetch-allocations");
        ManualClock clock = new ManualClock();
        Purgatory<DelayedFetch> purgatory = FetchHandler.newPurgatory(1000, clock);
        TopicRegistry topics = TopicRegistry.open(BrokerConfig.of(Map.of("log.dir", dir.toString())),
                Clock.systemUTC());
        try {
            topics.create("t", 1, 1, Map.of(), false);
            PartitionLog log = topics.partitionLog(topics.get("t").orElseThrow(), 0).orElseThrow();
            for (int i = 0; i < 10; i++) {
                TestLogs.appendBatchOf(log, 5);
            }
            FetchHandler handler = new FetchHandler(topics, purgatory, PartitionLeadership.SINGLE_NODE,
                    new BrokerTopicMetrics(new SimpleMeterRegistry()), TestFetchSessions.manager(clock),
                    BrokerConfig.FETCH_MAX_BYTES.defaultValue(),
                    (user, request) -> Integer.MAX_VALUE);
            long readBytes = 0;
            long fetchBytes = 0;
            for (int round = 0; round < ROUNDS; round++) {
                long before = threads.getThreadAllocatedBytes(thread);
                for (int i = 0; i < PER_ROUND; i++) {
                    LogReadResult read = log.read(i % 50, 1 << 20, true, Long.MAX_VALUE);
                    read.release();
                }
                long between = threads.getThreadAllocatedBytes(thread);
                for (int i = 0; i < PER_ROUND; i++) {
                    Struct answer = handler.handle(TestContexts.on("PLAINTEXT"), fetch(i % 50))
                            .toCompletableFuture().join();
                    answer.recordsPayloads().forEach(RecordsPayload::release);
                }
                long after = threads.getThreadAllocatedBytes(thread);
                readBytes = (between - before) / PER_ROUND;
                fetchBytes = (after - between) / PER_ROUND;
            }
            System.out.println("read_bytes=" + readBytes + " fetch_bytes=" + fetchBytes);
        } finally {
            purgatory.close();
            topics.close();
            try (Stream<Path> files = Files.walk(dir)) {
                files.sorted(Comparator.reverseOrder()).forEach(path -> path.toFile().delete());
            }
        }
    }

    private static Request fetch(long offset) {
        FetchRequestView body = new FetchRequestView().maxWaitMs(500).minBytes(1).maxBytes(1 << 20);
        body.addTopic().topic("t").addPartition().partition(0).fetchOffset(offset).partitionMaxBytes(1 << 20);
        return new Request(new RequestHeader(ApiKey.FETCH.id(), (short) 12, 1, "test"), ApiKey.FETCH, body.struct());
    }
}
