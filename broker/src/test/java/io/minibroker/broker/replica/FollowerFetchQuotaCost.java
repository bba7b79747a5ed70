package io.minibroker.broker.replica;

import com.sun.management.ThreadMXBean;
import io.minibroker.broker.config.BrokerConfig;
import io.minibroker.broker.log.TopicPartition;
import io.minibroker.broker.quota.ReplicationQuota;
import io.minibroker.broker.time.BrokerClock;
import io.minibroker.broker.topic.TopicRegistry;

import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.stream.Stream;

/**
 * What the leader's replication quota costs per follower fetch answered, in process: the bytes of the fetch's 16
 * partitions summed as {@code FetchReader} sums them, each partition asked {@link ReplicaManager#isLeaderThrottled},
 * then {@link ReplicaManager#answeredFollower} (the fetch's throttled bytes recorded, 0 too). Thread CPU time and heap
 * bytes per fetch (the JVM's counts for the measuring threads), with no throttled replicas configured and with the
 * topic's {@code leader.replication.throttled.replicas} naming every partition (rate 1 GB/s, never exceeded), on 1 and
 * on 2 threads (two event loops answering followers at once). Not a test: a measurement to compare builds by, run
 * as in docs/performance.md. Prints one line per case, the last of several rounds.
 */
public final class FollowerFetchQuotaCost {
    private static final int PARTITIONS = 16;
    private static final int ROUNDS = 5;
    private static final int PER_ROUND = 200_000;

    private FollowerFetchQuotaCost() {
    }

    public static void main(String[] args) throws Exception {
        for (boolean throttled : new boolean[] {false, true}) {
            for (int threads : new int[] {1, 2}) {
                for (boolean answered : new boolean[] {false, true}) {
                    measure(throttled, threads, answered);
                }
            }
        }
    }

    /** {@code answered} false: the bytes gathered only, what the quota's part is measured against. */
    private static void measure(boolean throttled, int threadCount, boolean answered) throws Exception {
        Path dir = Files.createTempDirectory("follower-fetch-quota-cost");
        TopicRegistry topics = TopicRegistry.open(BrokerConfig.of(Map.of("log.dir", dir.toString())),
                Clock.systemUTC());
        BrokerClock clock = BrokerClock.system();
        try {
            StringBuilder list = new StringBuilder();
            for (int p = 0; p < PARTITIONS; p++) {
                list.append(p == 0 ? "" : ",").append(p).append(":0");
            }
            topics.create("t", PARTITIONS, 1, throttled
                    ? Map.of("leader.replication.throttled.replicas", list.toString()) : Map.of(), false);
            ReplicationQuota leader = new ReplicationQuota("leader.replication.throttled.replicas", 0,
                    topics::overrides, () -> 1L << 30, clock::monotonicMs, 11, 1);
            ReplicaManager manager = TestReplicaManagers.nodeZero(topics, 1, 30_000, clock, leader,
                    ReplicationQuota.follower(BrokerConfig.of(Map.of()), topics::overrides, clock::monotonicMs));
            List<TopicPartition> partitions = new ArrayList<>();
            for (int p = 0; p < PARTITIONS; p++) {
                partitions.add(new TopicPartition("t", p));
            }
            long[] cpu = new long[threadCount];
            long[] bytes = new long[threadCount];
            long[] read = new long[threadCount]; // the bytes summed, kept so that the loop is not optimised away
            for (int round = 0; round < ROUNDS; round++) {
                CountDownLatch start = new CountDownLatch(1);
                List<Thread> running = new ArrayList<>();
                for (int t = 0; t < threadCount; t++) {
                    int index = t;
                    Thread thread = new Thread(() -> {
                        ThreadMXBean mx = (ThreadMXBean) ManagementFactory.getThreadMXBean();
                        awaitStart(start);
                        long cpuBefore = mx.getCurrentThreadCpuTime();
                        long bytesBefore = mx.getThreadAllocatedBytes(Thread.currentThread().getId());
                        long sum = 0;
                        for (int i = 0; i < PER_ROUND; i++) {
                            long throttledBytes = 0; // as FetchReader's readInto
                            for (TopicPartition partition : partitions) {
                                sum += 1000 + i % 1000;
                                if (answered && manager.isLeaderThrottled(partition)) {
                                    throttledBytes += 1000 + i % 1000;
                                }
                            }
                            if (answered) {
                                manager.answeredFollower(throttledBytes);
                            }
                        }
                        read[index] = sum;
                        cpu[index] = (mx.getCurrentThreadCpuTime() - cpuBefore) / PER_ROUND;
                        bytes[index] = (mx.getThreadAllocatedBytes(Thread.currentThread().getId()) - bytesBefore)
                                / PER_ROUND;
                    });
                    thread.start();
                    running.add(thread);
                }
                start.countDown();
                for (Thread thread : running) {
                    thread.join();
                }
            }
            System.out.printf("throttled_replicas=%s threads=%d %s cpu_ns_per_fetch=%s bytes_per_fetch=%s"
                    + " (summed %d)%n", throttled ? "all" : "none", threadCount,
                    answered ? "gathered+answered" : "gathered", Arrays.toString(cpu), Arrays.toString(bytes),
                    Arrays.stream(read).sum());
            manager.close();
        } finally {
            topics.close();
            try (Stream<Path> files = Files.walk(dir)) {
                files.sorted(Comparator.reverseOrder()).forEach(path -> path.toFile().delete());
            }
        }
    }

    private static void awaitStart(CountDownLatch start) {
        try {
            start.await();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
