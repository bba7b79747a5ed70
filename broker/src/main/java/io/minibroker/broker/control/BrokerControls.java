package io.minibroker.broker.control;

import io.minibroker.broker.api.SupportedApis;
import io.minibroker.broker.group.GroupCoordinator;
import io.minibroker.broker.topic.ElectableTopics.ElectionResult;
import io.minibroker.broker.topic.InternalTopics;
import io.minibroker.broker.time.BrokerClock;
import io.minibroker.broker.transaction.TransactionCoordinator;
import io.minibroker.protocol.error.Errors;
import io.minibroker.protocol.message.ApiKey;
import io.minibroker.protocol.message.Request;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.function.Function;
import java.util.function.IntUnaryOperator;

/**
 * A broker's test controls: make it misbehave on purpose and watch the clients cope. One engine, driven from Java
 * ({@code EmbeddedBroker.controls()}, {@code MiniCluster.controls(node)}) and over HTTP ({@code ControlsEndpoint}):
 * <ul>
 *   <li>errors: {@link #inject} rules that answer an API's requests with an error, instead of or after serving them;</li>
 *   <li>latency and silence: {@link #delay} answers, {@link #hang} (answer nothing, keep the connections),
 *       {@link #closeConnections}, {@link #refuseConnections};</li>
 *   <li>versions: {@link #capVersion} advertises and accepts an API only up to a version, as an older broker;</li>
 *   <li>the {@link #requestLog()}: every request, queried or awaited;</li>
 *   <li>topology, in a cluster: {@link #moveLeader} and coordinators (on the controller's node), {@link #shrinkIsr}
 *       (on the leader), {@link #lagFollower} (on a follower), {@link #killNode} and {@link #restartNode};</li>
 *   <li>time: {@link #advanceClock} on a broker started on a manual clock.</li>
 * </ul>
 * The request path asks {@link #engaged()}, one or two volatile reads, and pays nothing more while no control is set.
 * Latency is real time (it plays a network), as are a hung broker's held answers.
 */
public final class BrokerControls implements Controls, AutoCloseable {

    private final SupportedApis clientApis;
    private final ConnectionControl connections;
    private final BrokerClock clock;
    private final Function<UUID, Optional<String>> topicNames;
    private final RecordedRequests log;
    /** The controller's leader moves, on a cluster's controller node; null elsewhere. */
    private final LeaderMoves leaders;
    /** This node's replication, in a cluster; null on a single node. */
    private final ReplicaFaults replication;
    /** The cluster's nodes, when whoever runs them in this process handed them over; null otherwise. */
    private volatile ClusterNodes nodes;
    private volatile int self = -1;

    /** Whether any rule, delay or hang is set: the request path's test. */
    private volatile boolean engaged;
    private final List<InstalledRule> rules = new ArrayList<>();
    private long nextRuleId = 1;
    private volatile long brokerDelayMs;
    private volatile Map<ApiKey, Long> apiDelaysMs = Map.of();
    private volatile boolean hung;
    /** Answers held while hung, each with the event loop that writes it. */
    private final List<Held> held = new ArrayList<>();

    private record Held(Runnable send, ScheduledExecutorService loop) {
    }

    /**
     * @param clientApis the table the client listeners serve (version caps apply to it)
     * @param topicNames names a topic that a request sends by id, for matching and the log
     * @param leaders the controller's leader moves, on a cluster's controller node; null elsewhere
     * @param replication this node's replication in a cluster; null on a single node
     */
    public BrokerControls(SupportedApis clientApis, ConnectionControl connections, BrokerClock clock,
                          Function<UUID, Optional<String>> topicNames, LeaderMoves leaders,
                          ReplicaFaults replication) {
        this.leaders = leaders;
        this.replication = replication;
        this.clientApis = clientApis;
        this.connections = connections;
        this.clock = clock;
        this.topicNames = topicNames;
        this.log = new RecordedRequests(clock::wallClockMs);
    }

    /** Whether a request must go through {@link #intercept}: false, the usual case, when nothing is set. */
    public boolean engaged() {
        return engaged || log.recording();
    }

    /** The controls' view of one request, taken when it arrives, before it is served. */
    public InterceptedRequest intercept(Request request, SocketAddress from) {
        ErrorRule fired = null;
        LoggedRequest logged = null;
        boolean anyRule;
        synchronized (this) {
            anyRule = !rules.isEmpty();
        }
        if (anyRule || log.recording()) {
            RequestFacts facts = RequestFacts.of(request, connectionName(from), topicNames);
            fired = anyRule ? fire(facts) : null;
            logged = log.arrived(facts);
        }
        long delay = brokerDelayMs + apiDelaysMs.getOrDefault(request.api(), 0L);
        return new InterceptedRequest(this, request, fired, logged, delay);
    }

    // ---- errors

    @Override
    public synchronized long inject(ErrorRule rule) {
        if (!rule.servedFirst() && !ErrorAnswers.canAnswerInstead(rule.match().api())) {
            throw new IllegalArgumentException(rule.match().api()
                    + " has no error code of its own to answer instead of serving: inject it after serving");
        }
        long id = nextRuleId++;
        rules.add(new InstalledRule(id, rule, rule.count()));
        updateEngaged();
        return id;
    }

    @Override
    public synchronized List<InstalledRule> errorRules() {
        return List.copyOf(rules);
    }

    @Override
    public synchronized boolean removeErrorRule(long id) {
        boolean removed = rules.removeIf(installed -> installed.id() == id);
        updateEngaged();
        return removed;
    }

    @Override
    public synchronized void clearErrorRules() {
        rules.clear();
        updateEngaged();
    }

    /** The first rule that matches, its count taken down by one (and the rule dropped when spent). */
    private synchronized ErrorRule fire(RequestFacts facts) {
        for (int i = 0; i < rules.size(); i++) {
            InstalledRule installed = rules.get(i);
            if (!installed.rule().match().matches(facts)) {
                continue;
            }
            if (installed.remaining() == 1) {
                rules.remove(i);
                updateEngaged();
            } else if (installed.remaining() > 1) {
                rules.set(i, new InstalledRule(installed.id(), installed.rule(), installed.remaining() - 1));
            }
            return installed.rule();
        }
        return null;
    }

    // ---- latency and silence

    @Override
    public synchronized void delay(ApiKey api, long ms) {
        Map<ApiKey, Long> delays = new EnumMap<>(ApiKey.class);
        delays.putAll(apiDelaysMs);
        if (ms > 0) {
            delays.put(api, ms);
        } else {
            delays.remove(api);
        }
        apiDelaysMs = Map.copyOf(delays);
        updateEngaged();
    }

    @Override
    public synchronized void delayAll(long ms) {
        brokerDelayMs = Math.max(0, ms);
        updateEngaged();
    }

    @Override
    public synchronized void clearDelays() {
        brokerDelayMs = 0;
        apiDelaysMs = Map.of();
        updateEngaged();
    }

    /**
     * The broker stops answering: requests are still read and served, their answers held, and connections stay
     * open, as a broker stuck in a long pause looks to its clients (whose requests time out). {@link #resume}
     * writes the held answers.
     */
    @Override
    public synchronized void hang() {
        hung = true;
        updateEngaged();
    }

    @Override
    public void resume() {
        List<Held> release;
        synchronized (this) {
            hung = false;
            updateEngaged();
            release = List.copyOf(held);
            held.clear();
        }
        for (Held answer : release) {
            try {
                answer.loop().execute(answer.send());
            } catch (RejectedExecutionException e) {
                // the broker is closing: its connections close without these answers
            }
        }
    }

    @Override
    public boolean hung() {
        return hung;
    }

    /** Holds an answer while the broker is hung; false (nothing held) otherwise. */
    synchronized boolean holdIfHung(Runnable send, ScheduledExecutorService loop) {
        if (!hung) {
            return false;
        }
        held.add(new Held(send, loop));
        return true;
    }

    @Override
    public void closeConnections() {
        connections.closeAll();
    }

    @Override
    public void refuseConnections(boolean refuse) {
        connections.refuseNew(refuse);
    }

    // ---- versions

    @Override
    public void capVersion(ApiKey api, int maxVersion) {
        clientApis.capVersion(api, (short) maxVersion);
    }

    @Override
    public void clearVersionCaps() {
        clientApis.clearVersionCaps();
    }

    // ---- topology (a cluster's controller node)

    /**
     * Moves a partition's leadership to {@code node} (a live member of its ISR), as the controller would elect it;
     * brokers learn it from the next image, clients from NOT_LEADER_OR_FOLLOWER and their next Metadata. Only a
     * cluster's controller node moves leaders; moving to the leader there is does nothing.
     */
    @Override
    public void moveLeader(String topic, int partition, int node) {
        if (leaders == null) {
            throw new IllegalStateException("only a cluster's controller node moves leaders");
        }
        ElectionResult result = leaders.moveLeader(topic, partition, node);
        if (result.error() != Errors.NONE && result.error() != Errors.ELECTION_NOT_NEEDED) {
            throw new IllegalStateException("cannot move " + topic + "-" + partition + " to node " + node + ": "
                    + result.error() + " (" + result.message() + ")");
        }
    }

    /**
     * Makes {@code node} the coordinator of {@code group}: moves the leader of the {@code __consumer_offsets}
     * partition the group hashes to (Kafka's rule: every group of that partition moves with it). The offsets topic
     * must exist (a first FindCoordinator creates it) with a replica on {@code node}.
     */
    @Override
    public void moveGroupCoordinator(String group, int node) {
        moveCoordinator(InternalTopics.CONSUMER_OFFSETS,
                partitions -> GroupCoordinator.offsetsPartitionFor(group, partitions), node);
    }

    /**
     * Makes {@code node} the coordinator of {@code transactionalId}: moves the leader of its
     * {@code __transaction_state} partition (every id of that partition moves with it), which must exist (a first
     * FindCoordinator or InitProducerId creates it) with a replica on {@code node}.
     */
    @Override
    public void moveTransactionCoordinator(String transactionalId, int node) {
        moveCoordinator(InternalTopics.TRANSACTION_STATE,
                partitions -> TransactionCoordinator.partitionFor(transactionalId, partitions), node);
    }

    /** Moves the leader of the partition of {@code topic} (an internal topic) that {@code partitionFor} picks. */
    private void moveCoordinator(String topic, IntUnaryOperator partitionFor, int node) {
        int partitions = leaders == null ? -1 : leaders.partitionCount(topic);
        if (partitions <= 0) {
            moveLeader(topic, 0, node); // says why: not the controller, or no such topic
            return;
        }
        moveLeader(topic, partitionFor.applyAsInt(partitions), node);
    }

    @Override
    public List<Integer> shrinkIsr(String topic, int partition, int node) {
        try {
            return replication().shrinkIsr(topic, partition, node);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while shrinking the ISR", e);
        }
    }

    @Override
    public List<Integer> growIsr(String topic, int partition, int node) {
        try {
            return replication().growIsr(topic, partition, node);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while growing the ISR", e);
        }
    }

    @Override
    public void lagFollower(String topic, int partition) {
        replication().lagFollower(topic, partition);
    }

    @Override
    public void resumeFollower(String topic, int partition) {
        replication().resumeFollower(topic, partition);
    }

    @Override
    public void slowFollower(String topic, int partition, Duration delay) {
        replication().slowFollower(topic, partition, delay);
    }

    private ReplicaFaults replication() {
        if (replication == null) {
            throw new IllegalStateException("a single node replicates nothing: ISRs and followers are a cluster's");
        }
        return replication;
    }

    // ---- nodes

    /**
     * Hands over the cluster's nodes, so that these controls can take them down and bring them back; {@code self}
     * is the id of the node these controls belong to.
     */
    public void serveNodes(int self, ClusterNodes clusterNodes) {
        this.self = self;
        this.nodes = clusterNodes;
    }

    /** Whether {@code node} is the one these controls belong to (its endpoint cannot outlive stopping it). */
    boolean isSelf(int node) {
        return nodes != null && self == node;
    }

    @Override
    public void killNode(int node) {
        nodes().kill(node);
    }

    @Override
    public void stopNode(int node) {
        nodes().stop(node);
    }

    @Override
    public void restartNode(int node) {
        try {
            nodes().restart(node);
        } catch (IOException e) {
            throw new IllegalStateException("cannot restart node " + node + ": " + e, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while restarting node " + node, e);
        }
    }

    private ClusterNodes nodes() {
        ClusterNodes clusterNodes = nodes;
        if (clusterNodes == null) {
            throw new IllegalStateException("nodes go down and up only in a cluster run in one process "
                    + "(MiniCluster, minibroker --nodes)");
        }
        return clusterNodes;
    }

    // ---- request log and time

    @Override
    public RecordedRequests requestLog() {
        return log;
    }

    @Override
    public void advanceClock(Duration by) {
        clock.advance(by.toMillis());
    }

    @Override
    public boolean clockIsManual() {
        return clock.isManual();
    }

    @Override
    public void reset() {
        clearErrorRules();
        clearDelays();
        resume();
        refuseConnections(false);
        clearVersionCaps();
        if (replication != null) {
            replication.clear();
        }
        log.stop();
        log.clear();
    }

    /** The broker is stopping: held answers go out, so that its connections can be flushed and closed. */
    @Override
    public void close() {
        resume();
    }

    private void updateEngaged() {
        engaged = !rules.isEmpty() || brokerDelayMs > 0 || !apiDelaysMs.isEmpty() || hung;
    }

    /** {@code host:port} of a client, as the log and rules name its connection. */
    static String connectionName(SocketAddress address) {
        if (address instanceof InetSocketAddress inet && inet.getAddress() != null) {
            return inet.getAddress().getHostAddress() + ":" + inet.getPort();
        }
        return String.valueOf(address);
    }
}
