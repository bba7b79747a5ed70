package io.minibroker.broker.topic;

import io.minibroker.protocol.error.DefaultMessages;
import io.minibroker.protocol.error.Errors;

import java.util.Collection;
import java.util.Comparator;
import java.util.Map;
import java.util.PriorityQueue;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.LongSupplier;

/**
 * Why a streams group's internal topic could not be created, kept for a while, as Kafka's ExpiringErrorCache in its
 * AutoTopicCreationManager: while a topic's refusal is kept the broker does not ask for it again (Kafka's back-off),
 * and the members' heartbeats name the refusal in their MISSING_INTERNAL_TOPICS status, so that the Streams client
 * logs why it is stuck. Each refusal is kept for the period its creation was asked with (twice the group's heartbeat
 * interval), counted from when the answer came. At most {@value #CAPACITY} topics, as Kafka's: past that, the
 * refusals that expire first are forgotten first.
 */
public final class TopicCreationErrors {

    /** Kafka's topicErrorCacheCapacity. */
    static final int CAPACITY = 1000;

    private record Refusal(String topic, String message, long expiresAtMs) {
    }

    private final LongSupplier nowMs;
    private final int capacity;
    private final Map<String, Refusal> byTopic = new ConcurrentHashMap<>();
    /** Every refusal kept, the first to expire at the head; one replaced by a newer refusal of its topic is skipped. */
    private final PriorityQueue<Refusal> byExpiry =
            new PriorityQueue<>(Comparator.comparingLong(Refusal::expiresAtMs));

    /** @param nowMs the broker's monotonic clock */
    public TopicCreationErrors(LongSupplier nowMs) {
        this(nowMs, CAPACITY);
    }

    TopicCreationErrors(LongSupplier nowMs, int capacity) {
        this.nowMs = nowMs;
        this.capacity = capacity;
    }

    /** What is kept of a refusal: its message, or, with none, the error's own, as Kafka keeps a CreateTopics result. */
    public static String messageOf(Errors error, String message) {
        return message == null || message.isEmpty() ? DefaultMessages.of(error) : message;
    }

    /** Keeps {@code message} as why {@code topic} could not be created, for {@code ttlMs} from now. */
    public synchronized void remember(String topic, String message, long ttlMs) {
        long now = nowMs.getAsLong();
        Refusal refusal = new Refusal(topic, message, now + ttlMs);
        byTopic.put(topic, refusal);
        byExpiry.add(refusal);
        while (!byExpiry.isEmpty() && (byExpiry.peek().expiresAtMs() <= now || byTopic.size() > capacity)) {
            Refusal oldest = byExpiry.poll();
            byTopic.remove(oldest.topic(), oldest); // only if no newer refusal of the topic replaced it
        }
    }

    /** Whether a refusal of {@code topic}'s creation is still kept: its creation is not asked for again until then. */
    public boolean holds(String topic) {
        Refusal refusal = byTopic.get(topic);
        return refusal != null && refusal.expiresAtMs() > nowMs.getAsLong();
    }

    /** The kept refusals of these topics, by topic name. */
    public Map<String, String> of(Collection<String> topics) {
        long now = nowMs.getAsLong();
        Map<String, String> found = new TreeMap<>();
        for (String topic : topics) {
            Refusal refusal = byTopic.get(topic);
            if (refusal != null && refusal.expiresAtMs() > now) {
                found.put(topic, refusal.message());
            }
        }
        return found;
    }
}
