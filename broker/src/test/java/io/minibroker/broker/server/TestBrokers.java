package io.minibroker.broker.server;

import io.minibroker.broker.embedded.EmbeddedBroker;
import io.minibroker.broker.replica.ReplicaManager;
import io.minibroker.purgatory.time.ManualClock;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.FeatureUpdate;
import org.apache.kafka.clients.admin.UpdateFeaturesOptions;

import java.io.IOException;
import java.io.Reader;
import java.lang.reflect.Field;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;

/** Starts a broker for a test of this module on the test's own directory (see {@link EmbeddedBroker}). */
public final class TestBrokers {

    /**
     * Share consumers heartbeating every second (Kafka's default is every 5 s): a share partition is assigned at the
     * heartbeat after its share state is initialized (the first initialization also creates __share_group_state),
     * so a test of something else waits a second for it, not five.
     */
    public static final Map<String, String> SHARE_HEARTBEAT_EVERY_SECOND = Map.of(
            "group.share.heartbeat.interval.ms", "1000", "group.share.min.heartbeat.interval.ms", "1000");

    private TestBrokers() {
    }

    public static Broker start(Path logDir, Map<String, String> overrides) throws IOException, InterruptedException {
        return EmbeddedBroker.start(logDir, overrides).broker();
    }

    /** A broker whose time moves only with {@code clock.advance}. */
    public static Broker start(Path logDir, Map<String, String> overrides, ManualClock clock)
            throws IOException, InterruptedException {
        return EmbeddedBroker.start(logDir, overrides, clock).broker();
    }

    /** The directory id of a node's log directory, as its meta.properties has it (Kafka's text for ids). */
    public static String directoryId(Path logDir) throws IOException {
        Properties meta = new Properties();
        try (Reader reader = Files.newBufferedReader(logDir.resolve("meta.properties"))) {
            meta.load(reader);
        }
        return meta.getProperty("directory.id");
    }

    /** Finalizes kraft.version 1 through {@code admin}, as {@code kafka-features upgrade --feature kraft.version=1}. */
    public static void upgradeKraftVersion(Admin admin) throws ExecutionException, InterruptedException {
        admin.updateFeatures(Map.of("kraft.version", new FeatureUpdate((short) 1, FeatureUpdate.UpgradeType.UPGRADE)),
                new UpdateFeaturesOptions()).all().get();
    }

    /** An AdminClient bootstrapped from the broker's PLAINTEXT listener; the caller closes it. */
    public static Admin admin(Broker broker) {
        return Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG,
                "localhost:" + broker.boundPort("PLAINTEXT")));
    }

    /**
     * Occupies the broker's disk-io thread, as a long fsync or admin change would, until the result is closed; returns
     * once the thread is taken. The executor is the broker's own (a private field, read here rather than opened in
     * the product for tests): the point is to show what does, or does not, queue behind that thread's work.
     */
    public static AutoCloseable occupyDiskThread(Broker broker) throws Exception {
        Field field = Broker.class.getDeclaredField("disk");
        field.setAccessible(true);
        ExecutorService disk = (ExecutorService) field.get(broker);
        CountDownLatch taken = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        disk.execute(() -> {
            taken.countDown();
            try {
                release.await();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        });
        taken.await();
        return release::countDown;
    }

    /** A cluster node's replicas (read as {@link #occupyDiskThread} reads the disk thread), for a test's controls. */
    public static ReplicaManager replicas(Broker broker) throws ReflectiveOperationException {
        Field field = Broker.class.getDeclaredField("cluster");
        field.setAccessible(true);
        return ((ClusterLink) field.get(broker)).replicas();
    }
}
