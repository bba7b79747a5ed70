package io.minibroker.broker.fetch;

import io.minibroker.broker.api.ApiHandler;
import io.minibroker.broker.api.LeaderHints;
import io.minibroker.broker.api.PartitionLeadership;
import io.minibroker.broker.api.RequestContext;
import io.minibroker.broker.fetch.session.FetchContext;
import io.minibroker.broker.fetch.session.FetchManager;
import io.minibroker.broker.fetch.session.FetchSession;
import io.minibroker.broker.log.PartitionLog;
import io.minibroker.broker.log.TopicPartition;
import io.minibroker.broker.metrics.BrokerTopicMetrics;
import io.minibroker.broker.topic.TopicMetadata;
import io.minibroker.broker.topic.TopicRegistry;
import io.minibroker.protocol.error.Errors;
import io.minibroker.protocol.message.Request;
import io.minibroker.protocol.message.view.FetchRequestView;
import io.minibroker.protocol.message.view.FetchResponseView;
import io.minibroker.protocol.schema.Struct;
import io.minibroker.purgatory.Purgatory;
import io.minibroker.purgatory.time.Clock;

import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.function.ToIntBiFunction;

/**
 * Fetch: answers at once when there is at least {@code MinBytes} of data, a partition that cannot be read, or
 * no wait allowed; otherwise parks the fetch in the fetch purgatory, keyed by its partitions, until an append brings
 * enough data or {@code MaxWaitMs} passes.
 *
 * <p>Fetch sessions (KIP-227), from v7, as Kafka's: the {@link FetchManager} sorts the request by its session id and
 * epoch; a session error is answered at the top level without partitions; an incremental fetch reads its session's
 * partitions and is answered with those that changed, at once or when its wait ends, as any other.
 */
public final class FetchHandler implements ApiHandler {

    /** KIP-951: CurrentLeader and NodeEndpoints from v16 (topics named by id). */
    private static final int CURRENT_LEADER_FROM_VERSION = 16;

    private final TopicRegistry topics;
    private final Purgatory<DelayedFetch> purgatory;
    private final PartitionLeadership leadership;
    private final BrokerTopicMetrics metrics;
    private final FetchManager sessions;
    /** {@code fetch.max.bytes}: the most bytes an answer holds, whatever the request asks. */
    private final int fetchMaxBytes;
    /** The most bytes the fetching client's {@code consumer_byte_rate} lets through in a quota window. */
    private final ToIntBiFunction<String, Request> quotaWindowBytes;

    public FetchHandler(TopicRegistry topics, Purgatory<DelayedFetch> purgatory, PartitionLeadership leadership,
                        BrokerTopicMetrics metrics, FetchManager sessions, int fetchMaxBytes,
                        ToIntBiFunction<String, Request> quotaWindowBytes) {
        this.topics = topics;
        this.sessions = sessions;
        this.purgatory = purgatory;
        this.leadership = leadership;
        this.metrics = metrics;
        this.fetchMaxBytes = fetchMaxBytes;
        this.quotaWindowBytes = quotaWindowBytes;
    }

    /** A purgatory for parked fetches, as the broker names it. */
    public static Purgatory<DelayedFetch> newPurgatory(int purgeInterval, Clock clock) {
        return Purgatory.builder("Fetch").clock(clock).purgeInterval(purgeInterval).build();
    }

    @Override
    public CompletionStage<Struct> handle(RequestContext context, Request request) {
        FetchRequestView body = new FetchRequestView(request.body());
        FetchContext session = sessions.newContext(request.version(), body, FetchPlan.replicaIdOf(request, body) >= 0);
        if (session instanceof FetchContext.SessionError refused) {
            return CompletableFuture.completedFuture(new FetchResponseView()
                    .errorCode(refused.error().code()).sessionId(FetchSession.INVALID_SESSION_ID).struct());
        }
        // As Kafka's KafkaApis: never more than the client's quota lets through in a window, so that an answer
        // throttled and emptied for its size (network/RequestHandler) is not the same answer again at every retry.
        FetchPlan plan = FetchPlan.of(request, session, topics, leadership,
                Math.min(fetchMaxBytes, quotaWindowBytes.applyAsInt(context.principal().name(), request)),
                context.listenerName());
        for (FetchPlan.TopicPlan topic : plan.topics()) {
            int partitionsRead = 0;
            String topicName = null; // named by id from v13; its logs know the name
            for (FetchPlan.PartitionPlan partition : topic.partitions()) {
                if (partition.log() == null) {
                    continue;
                }
                partitionsRead++;
                topicName = partition.log().topicPartition().topic();
                if (plan.fromFollower() && partition.divergingEpoch() == null) {
                    // Where a follower fetches from is where its log ends: that may move the high watermark first.
                    // Not when its log diverges from ours: it is about to cut it, as Kafka's leader skips it then.
                    leadership.onFollowerFetch(partition.log().topicPartition(), plan.replicaId(),
                            plan.replicaEpoch(), partition.fetchOffset(), partition.logStartOffset());
                }
            }
            if (partitionsRead > 0) { // counted once per request, as Kafka does, not again when a parked fetch ends
                metrics.topic(topicName).totalFetchRequests().increment(partitionsRead);
            }
        }
        int maxWaitMs = body.maxWaitMs();
        List<PartitionLog> logs = plan.logs();
        if (maxWaitMs <= 0 || logs.isEmpty() || plan.answersAtOnce() || FetchReader.canAnswer(plan)) {
            return CompletableFuture.completedFuture(withLeaderHints(request, FetchReader.read(plan, metrics),
                    context.listenerName()));
        }
        CompletableFuture<Struct> answer = new CompletableFuture<>();
        purgatory.tryCompleteElseWatch(new DelayedFetch(maxWaitMs, plan, answer, metrics),
                logs.stream().map(PartitionLog::topicPartition).toList());
        return answer.thenApply(response -> withLeaderHints(request, response, context.listenerName()));
    }

    /**
     * KIP-951 from v16, as Kafka's KafkaApis: a partition answered NOT_LEADER_OR_FOLLOWER or FENCED_LEADER_EPOCH
     * names its current leader, and the answer those leaders' endpoints.
     */
    private Struct withLeaderHints(Request request, Struct answer, String listener) {
        if (request.version() < CURRENT_LEADER_FROM_VERSION) {
            return answer;
        }
        FetchResponseView response = new FetchResponseView(answer);
        LeaderHints hints = null; // made only for an answer with a partition to name a leader for: most have none
        for (FetchResponseView.FetchableTopicResponse topic : response.responses()) {
            for (FetchResponseView.PartitionData partition : topic.partitions()) {
                Errors error = Errors.forCode(partition.errorCode());
                if (error != Errors.NOT_LEADER_OR_FOLLOWER && error != Errors.FENCED_LEADER_EPOCH) {
                    continue;
                }
                Optional<String> name = topics.known(topic.topicId()).map(TopicMetadata::name);
                if (name.isPresent()) {
                    hints = hints != null ? hints : new LeaderHints(leadership, listener);
                    PartitionLeadership.CurrentLeader leader = hints.leaderOf(
                            new TopicPartition(name.get(), partition.partitionIndex()));
                    partition.currentLeader().leaderId(leader.leaderId()).leaderEpoch(leader.leaderEpoch());
                }
            }
        }
        if (hints != null) {
            hints.writeEndpoints(endpoint -> response.addNodeEndpoint().nodeId(endpoint.leaderId())
                    .host(endpoint.host()).port(endpoint.port()).rack(endpoint.rack()));
        }
        return answer;
    }
}
