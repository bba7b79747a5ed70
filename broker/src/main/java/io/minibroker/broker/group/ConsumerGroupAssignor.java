package io.minibroker.broker.group;

import io.minibroker.broker.config.BrokerConfig;

import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;

/**
 * A server-side assignor of consumer-protocol groups (Kafka's ConsumerGroupPartitionAssignor), chosen by
 * {@code group.consumer.assignors} and a member's {@code ServerAssignor}: from the members' subscriptions and their
 * current target assignment, the next target assignment. Assignors are pure functions of their input.
 */
interface ConsumerGroupAssignor {

    /** What an assignor sees of a member: the topics it subscribes to (those that exist) and its current target. */
    record MemberSpec(String memberId, String rackId, Set<UUID> subscribedTopics, Map<UUID, Set<Integer>> current) {
    }

    /** The name a member asks for in its heartbeat. */
    String name();

    /**
     * The target assignment of every member.
     *
     * @param members    the members, each with its subscribed topic ids
     * @param partitions each subscribed topic's partition count
     */
    Map<String, Map<UUID, Set<Integer>>> assign(List<MemberSpec> members, Map<UUID, Integer> partitions);

    /** The assignors {@code group.consumer.assignors} names, Kafka's short names or class names. */
    static ConsumerGroupAssignor named(String name) {
        String builtIn = BrokerConfig.consumerGroupAssignor(name);
        if (UniformAssignor.NAME.equals(builtIn)) {
            return new UniformAssignor();
        }
        if (RangeAssignor.NAME.equals(builtIn)) {
            return new RangeAssignor();
        }
        throw new IllegalArgumentException("unknown consumer group assignor " + name);
    }
}
