package io.minibroker.broker.topic;

import io.minibroker.protocol.error.Errors;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.Collection;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import java.util.function.Consumer;
import java.util.function.IntPredicate;
import java.util.function.Supplier;

/**
 * A single node's {@link TopicAutoCreation}: each topic is created here ({@link TopicRegistry#autoCreate}) on an
 * executor of its own, since creating writes files (50 logs for {@code __consumer_offsets}), while the request that
 * asked is answered at once, as Kafka's broker answers while its controller creates the topic. Not on the disk
 * executor: a produce whose append started a leader epoch, or that {@code flush.messages} has fsynced, is answered
 * from there, and would wait behind the whole creation, where Kafka's produce to another topic does not wait.
 * A streams group's internal topic that could not be created is kept in {@link TopicCreationErrors}, as Kafka's
 * broker keeps what its controller answered.
 */
public final class LocalTopicAutoCreation implements TopicCreation {

    private static final Logger LOG = LoggerFactory.getLogger(LocalTopicAutoCreation.class);

    private final TopicRegistry topics;
    private final Executor creation;
    private final Set<String> inFlight = ConcurrentHashMap.newKeySet();
    private final TopicCreationErrors refusals;
    private final CreationQuota creationQuota;

    /**
     * @param creation       where topics are created: not the disk executor, which answers produces
     * @param refusals       where refused internal topics are kept
     * @param creationQuota  what the internal topics created on a member's account count against
     */
    public LocalTopicAutoCreation(TopicRegistry topics, Executor creation, TopicCreationErrors refusals,
                                  CreationQuota creationQuota) {
        this.topics = topics;
        this.creation = creation;
        this.refusals = refusals;
        this.creationQuota = creationQuota;
    }

    @Override
    public void create(Collection<String> names) {
        for (String name : names) {
            createOnce(name, () -> topics.autoCreate(name), refused -> { });
        }
    }

    @Override
    public void createAsDecided(Collection<AutoCreatedTopic> decided, long errorRetentionMs,
                                RequestingClient client) {
        // One CreateTopics of the member's, as Kafka's controller counts it: over the quota a topic is refused
        // THROTTLING_QUOTA_EXCEEDED (kept as any refusal), and the creations run one at a time on the executor.
        IntPredicate quota = creationQuota.forRequestOf(client);
        for (AutoCreatedTopic topic : decided) {
            if (!refusals.holds(topic.name())) {
                // Any refusal is kept, TOPIC_ALREADY_EXISTS too, as Kafka keeps every error its controller answers.
                createOnce(topic.name(), () -> quota.test(topic.partitions()) ? topics.autoCreate(topic)
                        : TopicRegistry.Outcome.failed(Errors.THROTTLING_QUOTA_EXCEEDED, null),
                        refused -> refusals.remember(topic.name(),
                                TopicCreationErrors.messageOf(refused.error(), refused.message()), errorRetentionMs));
            }
        }
    }

    @Override
    public Map<String, String> creationErrors(Collection<String> names) {
        return refusals.of(names);
    }

    private void createOnce(String name, Supplier<TopicRegistry.Outcome> create,
                            Consumer<TopicRegistry.Outcome> onRefusal) {
        if (inFlight.add(name)) {
            try {
                creation.execute(() -> createNow(name, create, onRefusal));
            } catch (RejectedExecutionException e) { // the broker is stopping: nobody will ask again
                inFlight.remove(name);
            }
        }
    }

    private void createNow(String name, Supplier<TopicRegistry.Outcome> create,
                           Consumer<TopicRegistry.Outcome> onRefusal) {
        try {
            TopicRegistry.Outcome created = create.get();
            if (created.error() != Errors.NONE) {
                onRefusal.accept(created);
            }
            if (created.error() != Errors.NONE && created.error() != Errors.TOPIC_ALREADY_EXISTS) {
                LOG.warn("Could not create topic {}: {} {}", name, created.error(), created.message());
            }
        } finally {
            inFlight.remove(name);
        }
    }
}
