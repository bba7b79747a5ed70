package io.minibroker.broker.cluster;

import io.minibroker.broker.admin.ConfigResources;
import io.minibroker.broker.metadata.BrokerDirectory;
import io.minibroker.broker.topic.TopicIds;
import io.minibroker.protocol.error.Errors;
import io.minibroker.protocol.error.ProtocolException;
import io.minibroker.protocol.message.ApiKey;
import io.minibroker.protocol.message.view.DescribeConfigsRequestView;
import io.minibroker.protocol.message.view.DescribeConfigsResponseView;
import io.minibroker.protocol.message.view.FetchRequestView;
import io.minibroker.protocol.message.view.FetchResponseView;
import io.minibroker.protocol.message.view.MetadataRequestView;
import io.minibroker.protocol.message.view.MetadataResponseView;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.function.Consumer;

/**
 * Keeps this broker's copy of the cluster metadata: fetches the controller's whole image (a Metadata request on
 * the controller's listener, then a DescribeConfigs of its topics for their config overrides, which Metadata does
 * not carry) and installs it. Fetches are serialised on one connection and each answer is an
 * image the controller took after the previous one, so a broker's image only ever moves forward, through the
 * controller's changes in their order.
 *
 * <p>It follows the controller as Kafka's brokers follow the metadata log: once this broker is registered, fenced
 * still ({@link #startFollowing}), its {@code metadata-fetcher} thread sends a Fetch of {@code __cluster_metadata}
 * naming the image version it has, which parks at the controller until the version moves on (see the controller's
 * {@code ImageVersion}) or {@value #FETCH_MAX_WAIT_MS} ms pass, and fetches the image whenever the answer names
 * another version: every change reaches this broker within milliseconds of the controller making it, whatever the
 * heartbeat interval. The parked fetch has a connection of its own, so it never holds up an image fetch, and the
 * heartbeats have theirs. After any failure it asks again from no version, so a restarted controller, whose
 * versions start afresh, is always fetched from. A forwarded admin request also refreshes the image right after
 * the controller's answer ({@link ControllerForwarder}), so that its client sees the change at once.
 */
public final class MetadataFetcher implements BrokerDirectory, AutoCloseable {

    /** Kafka's metadata topic, which the followers' Fetch names. */
    public static final String METADATA_TOPIC = "__cluster_metadata";
    /**
     * How long a fetch waits at the controller for a change: Kafka's brokers wait 500 ms on the metadata log
     * (KafkaRaftClient.MAX_FETCH_WAIT_MS), as followers do on a partition by default (replica.fetch.wait.max.ms).
     */
    public static final int FETCH_MAX_WAIT_MS = 500;
    /** How long to wait before asking again after a failure: Kafka's retry.backoff.ms default. */
    private static final long RETRY_BACKOFF_MS = 100;
    /** The version a follower names when it has none the controller gave: any version is another. */
    private static final long NO_VERSION = -1;

    private static final Logger LOG = LoggerFactory.getLogger(MetadataFetcher.class);

    private final NodeChannel controller;
    private final NodeChannel changes;
    private final int nodeId;
    /** This broker's metadata directory's id, which its fetch names as Kafka's brokers name theirs. */
    private final UUID directoryId;
    private final String interBrokerListener;
    private final Consumer<ClusterMetadata> onImage;
    private final Consumer<SecurityRecords.Snapshot> onSecurity;
    private final Thread follower;
    private final Object wakeUp = new Object();
    private volatile boolean running = true;
    private volatile ClusterMetadata current;
    /**
     * The image version applied last, which heartbeats report (CurrentMetadataOffset): -1 before the first, and
     * again after a failure, since a restarted controller counts its versions afresh.
     */
    private volatile long appliedVersion = NO_VERSION;
    /** Whether a whole image (topics, their configs, and what {@code onSecurity} takes) has been handed on. */
    private volatile boolean loaded;
    /**
     * The digest of the ACLs, credentials and group configs last handed to {@code onSecurity}; written under this
     * object's lock.
     */
    private long securityDigest = NO_VERSION;

    /**
     * @param controller          where images are fetched
     * @param changes             where the fetch that waits for a change parks: a connection of its own
     * @param directoryId         the directory id of this broker's first log directory, Kafka's metadata log
     *                            directory by default: the observer DescribeQuorum shows is known by it
     * @param interBrokerListener the listener whose endpoints {@code onImage} is given: replica fetchers connect
     *                            to a leader there, never at the address a client was told
     * @param onImage             given each image fetched, in order, before any later one
     * @param onSecurity          given the ACLs, SCRAM credentials and group configs of an image fetched, in
     *                            order, after its topics, when they differ from those it was last given
     */
    public MetadataFetcher(NodeChannel controller, NodeChannel changes, int nodeId, UUID directoryId,
                           String interBrokerListener, Consumer<ClusterMetadata> onImage,
                           Consumer<SecurityRecords.Snapshot> onSecurity) {
        this.controller = controller;
        this.changes = changes;
        this.nodeId = nodeId;
        this.directoryId = directoryId;
        this.interBrokerListener = interBrokerListener;
        this.onImage = onImage;
        this.onSecurity = onSecurity;
        this.current = ClusterMetadata.empty();
        this.follower = new Thread(this::follow, "metadata-fetcher");
        follower.setDaemon(true);
    }

    /** The latest image fetched (an empty one before the first fetch). */
    public ClusterMetadata current() {
        return current;
    }

    /**
     * Starts following the controller's changes the first time it is called; later calls do nothing.
     * {@link BrokerLifecycle} calls it after each accepted registration: the controller unfences this broker only
     * once it reports the image of its registration applied ({@link #appliedVersion}), as Kafka's brokers catch up
     * with the metadata log while fenced.
     */
    public void startFollowing() {
        synchronized (wakeUp) { // not this object's lock, which an image fetch holds while it waits
            if (running && follower.getState() == Thread.State.NEW) {
                follower.start();
            }
        }
    }

    private void follow() {
        long known = NO_VERSION;
        boolean reportedUnreachable = false;
        while (running) {
            try {
                long version = awaitChange(known);
                if (version != known && running) {
                    refresh();
                    known = version;
                    appliedVersion = version;
                }
                reportedUnreachable = false;
            } catch (IOException | RuntimeException e) { // a thread that dies here would leave the image stale
                if (!running) {
                    return; // closed: the parked fetch was aborted
                }
                known = NO_VERSION; // the next connection may reach a restarted controller, counting afresh
                appliedVersion = NO_VERSION;
                if (!reportedUnreachable) {
                    LOG.warn("Cannot follow the controller's metadata ({}); trying again every {} ms", e.toString(),
                            RETRY_BACKOFF_MS);
                    reportedUnreachable = true;
                }
                backOff();
            }
        }
    }

    /** The controller's image version once it is not {@code known}, or after the fetch's wait, whichever first. */
    private long awaitChange(long known) throws IOException {
        FetchRequestView request = new FetchRequestView().maxWaitMs(FETCH_MAX_WAIT_MS).minBytes(1);
        request.replicaState().replicaId(nodeId).replicaEpoch(-1);
        request.addTopic().topic(METADATA_TOPIC).topicId(TopicIds.METADATA_TOPIC_ID)
                .addPartition().partition(0).fetchOffset(known).replicaDirectoryId(directoryId);
        FetchResponseView response = new FetchResponseView(changes.send(ApiKey.FETCH, request.struct()));
        Errors error = Errors.forCode(response.errorCode());
        if (error != Errors.NONE || response.responses().isEmpty()
                || response.responses().get(0).partitions().isEmpty()) {
            throw new IOException("the controller refused the metadata fetch: " + error);
        }
        return response.responses().get(0).partitions().get(0).highWatermark();
    }

    private void backOff() {
        synchronized (wakeUp) {
            if (!running) {
                return;
            }
            try {
                wakeUp.wait(RETRY_BACKOFF_MS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt(); // only close wakes us; an interrupt ends the thread
                running = false;
            }
        }
    }

    /** Fetches and installs the controller's image now. */
    public synchronized void refresh() throws IOException {
        MetadataResponseView response = new MetadataResponseView(controller.send(ApiKey.METADATA,
                new MetadataRequestView().topics(null).struct()));
        ClusterMetadata image = ClusterMetadata.from(response);
        if (!image.topics().isEmpty()) {
            image = image.withTopicConfigs(fetchTopicConfigs(image.topics().keySet()));
        }
        onImage.accept(image.forListener(interBrokerListener)); // hosts the image's partitions before clients are told of them
        current = image;
        refreshSecurity();
        loaded = true;
    }

    /** The controller's image version this broker applied last, -1 if none (see {@link #appliedVersion}). */
    public long appliedVersion() {
        return appliedVersion;
    }

    /**
     * Whether the first image has been applied with the configs it carries (the topics' overrides, the dynamic
     * broker configs): before, this broker's logs run on its file's settings only.
     */
    public boolean loaded() {
        return loaded;
    }

    /**
     * The controller's ACLs, SCRAM credentials and group configs, handed on when they are not the ones this broker
     * holds: a Fetch of {@code __cluster_metadata} that asks for records and waits for nothing, naming the digest of
     * the snapshot this broker holds as its offset; the controller answers the digest of its own as the high
     * watermark, with the records only when the two differ (most images change only topics). It names no replica,
     * so the controller does not take it for what this broker has applied.
     */
    private void refreshSecurity() throws IOException {
        FetchRequestView request = new FetchRequestView().maxWaitMs(0).minBytes(0).maxBytes(Integer.MAX_VALUE);
        request.replicaState().replicaId(-1).replicaEpoch(-1);
        request.addTopic().topic(METADATA_TOPIC).topicId(TopicIds.METADATA_TOPIC_ID)
                .addPartition().partition(0).fetchOffset(securityDigest).partitionMaxBytes(Integer.MAX_VALUE);
        FetchResponseView response = new FetchResponseView(controller.send(ApiKey.FETCH, request.struct()));
        if (response.errorCode() != Errors.NONE.code() || response.responses().isEmpty()
                || response.responses().get(0).partitions().isEmpty()) {
            throw new IOException("the controller refused the metadata fetch: "
                    + Errors.forCode(response.errorCode()));
        }
        FetchResponseView.PartitionData answer = response.responses().get(0).partitions().get(0);
        if (answer.highWatermark() == securityDigest) {
            return;
        }
        try {
            onSecurity.accept(SecurityRecords.decode(answer.records()));
        } catch (IllegalArgumentException | ProtocolException e) {
            throw new IOException("unreadable ACL or SCRAM records from the controller", e);
        }
        securityDigest = answer.highWatermark();
    }

    /** Each topic's config overrides, as the controller lists them: the configs whose source is the topic. */
    private Map<String, Map<String, String>> fetchTopicConfigs(Collection<String> topics) throws IOException {
        DescribeConfigsRequestView request = new DescribeConfigsRequestView();
        for (String topic : topics) {
            request.addResource().resourceType(ConfigResources.TOPIC).resourceName(topic).configurationKeys(null);
        }
        Map<String, Map<String, String>> configs = new HashMap<>();
        DescribeConfigsResponseView response = new DescribeConfigsResponseView(
                controller.send(ApiKey.DESCRIBE_CONFIGS, request.struct()));
        for (DescribeConfigsResponseView.DescribeConfigsResult result : response.results()) {
            if (result.errorCode() != Errors.NONE.code()) {
                continue; // deleted since the Metadata answer: the next fetch has it gone
            }
            Map<String, String> overrides = new HashMap<>();
            for (DescribeConfigsResponseView.DescribeConfigsResourceResult config : result.configs()) {
                if (config.configSource() == ConfigResources.DYNAMIC_TOPIC_CONFIG) {
                    overrides.put(config.name(), config.value());
                }
            }
            configs.put(result.resourceName(), overrides);
        }
        return configs;
    }

    @Override
    public int controllerId() {
        return current.randomAliveBrokerId();
    }

    /** The brokers of the image at their endpoints on the listener the request came on, as in Kafka. */
    @Override
    public List<ListedBroker> brokers(String listenerName, boolean includeFenced) {
        ClusterMetadata image = current;
        List<ListedBroker> listed = new ArrayList<>();
        image.brokers(listenerName).forEach(b -> listed.add(new ListedBroker(b.id(), b.host(), b.port(), b.rack(), false)));
        if (includeFenced) {
            image.fencedBrokers(listenerName)
                    .forEach(b -> listed.add(new ListedBroker(b.id(), b.host(), b.port(), b.rack(), true)));
            listed.sort(Comparator.comparingInt(ListedBroker::id));
        }
        return listed;
    }

    /**
     * Stops following at once: the parked fetch is aborted, not waited for, and so is an image fetch under way
     * (this broker's logs are about to close); later refreshes fail.
     */
    @Override
    public void close() {
        synchronized (wakeUp) {
            running = false;
            wakeUp.notifyAll();
        }
        changes.abort();
        controller.abort();
        if (follower.getState() != Thread.State.NEW) {
            try {
                follower.join();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }
}
