package io.minibroker.broker.fetch;

import com.sun.management.ThreadMXBean;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.minibroker.broker.api.PartitionLeadership;
import io.minibroker.broker.api.TestContexts;
import io.minibroker.broker.config.BrokerConfig;
import io.minibroker.broker.fetch.session.TestFetchSessions;
import io.minibroker.broker.log.TestLogs;
import io.minibroker.broker.metrics.BrokerTopicMetrics;
import io.minibroker.broker.topic.TopicRegistry;
import io.minibroker.protocol.header.RequestHeader;
import io.minibroker.protocol.message.ApiKey;
import io.minibroker.protocol.message.Request;
import io.minibroker.protocol.message.view.FetchRequestView;
import io.minibroker.protocol.message.view.FetchResponseView;
import io.minibroker.protocol.schema.Struct;
import io.minibroker.purgatory.Purgatory;
import io.minibroker.purgatory.time.ManualClock;

import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.Comparator;
import java.util.Map;
import java.util.function.IntFunction;
import java.util.stream.Stream;

/**
 * Heap bytes allocated per Fetch of a caught-up consumer on 50 partitions (every fetch offset at the log end, no
 * wait), answered at once by the handler on one thread: a sessionless full fetch (epoch -1, what every fetch was before
 * fetch sessions) against an incremental fetch of a session holding the 50 partitions, naming none; with the thread's
 * CPU time per request beside. Not a test: a measurement, run as FetchAllocations is (docs/performance.md); prints
 * {@code full_bytes=… full_cpu_ns=… incremental_bytes=… incremental_cpu_ns=…}, the last of several rounds.
 */
public final class SessionFetchAllocations {
    private static final int PARTITIONS = 50;
    private static final int ROUNDS = 5;
    private static final int PER_ROUND = 20_000;

    private SessionFetchAllocations() {
    }

    public static void main(String[] args) throws Exception {
        Path dir = Files.createTempDirectory("session-fetch-allocations");
        ManualClock clock = new ManualClock();
        Purgatory<DelayedFetch> purgatory = FetchHandler.newPurgatory(1000, clock);
        TopicRegistry topics = TopicRegistry.open(BrokerConfig.of(Map.of("log.dir", dir.toString())),
                Clock.systemUTC());
        try {
            topics.create("t", PARTITIONS, 1, Map.of(), false);
            for (int p = 0; p < PARTITIONS; p++) {
                TestLogs.appendBatchOf(topics.partitionLog(topics.get("t").orElseThrow(), p).orElseThrow(), 5);
            }
            FetchHandler handler = new FetchHandler(topics, purgatory, PartitionLeadership.SINGLE_NODE,
                    new BrokerTopicMetrics(new SimpleMeterRegistry()), TestFetchSessions.manager(clock),
                    BrokerConfig.FETCH_MAX_BYTES.defaultValue(), (user, request) -> Integer.MAX_VALUE);
            String full = costPer(handler, epoch -> fetch(0, -1, true));
            int session = new FetchResponseView(answer(handler, fetch(0, 0, true))).sessionId();
            String incremental = costPer(handler, epoch -> fetch(session, epoch, false));
            System.out.println("full_" + full + " incremental_" + incremental);
        } finally {
            purgatory.close();
            topics.close();
            try (Stream<Path> files = Files.walk(dir)) {
                files.sorted(Comparator.reverseOrder()).forEach(path -> path.toFile().delete());
            }
        }
    }

    /**
     * The last round's bytes and CPU nanoseconds per request, as {@code bytes=… cpu_ns=…}, the requests made before
     * the count starts (epochs 1, 2, ... in turn).
     */
    private static String costPer(FetchHandler handler, IntFunction<Request> requests) {
        ThreadMXBean threads = (ThreadMXBean) ManagementFactory.getThreadMXBean();
        long thread = Thread.currentThread().getId();
        Request[] made = new Request[ROUNDS * PER_ROUND];
        for (int i = 0; i < made.length; i++) {
            made[i] = requests.apply(i + 1);
        }
        String cost = "";
        for (int round = 0; round < ROUNDS; round++) {
            long before = threads.getThreadAllocatedBytes(thread);
            long cpuBefore = threads.getCurrentThreadCpuTime();
            for (int i = 0; i < PER_ROUND; i++) {
                answer(handler, made[round * PER_ROUND + i]);
            }
            cost = "bytes=" + (threads.getThreadAllocatedBytes(thread) - before) / PER_ROUND
                    + " cpu_ns=" + (threads.getCurrentThreadCpuTime() - cpuBefore) / PER_ROUND;
        }
        return cost;
    }

    private static Struct answer(FetchHandler handler, Request request) {
        return handler.handle(TestContexts.on("PLAINTEXT"), request).toCompletableFuture().join();
    }

    private static Request fetch(int sessionId, int epoch, boolean named) {
        FetchRequestView body = new FetchRequestView().maxWaitMs(0).minBytes(1).maxBytes(1 << 20)
                .sessionId(sessionId).sessionEpoch(epoch);
        if (named) {
            FetchRequestView.FetchTopic topic = body.addTopic().topic("t");
            for (int p = 0; p < PARTITIONS; p++) {
                topic.addPartition().partition(p).fetchOffset(5).partitionMaxBytes(1 << 20);
            }
        }
        return new Request(new RequestHeader(ApiKey.FETCH.id(), (short) 12, 1, "test"), ApiKey.FETCH, body.struct());
    }
}
