package io.minibroker.broker.group;

import com.google.re2j.Pattern;
import com.google.re2j.PatternSyntaxException;
import io.minibroker.broker.topic.InternalTopics;
import io.minibroker.broker.topic.TopicMetadata;
import io.minibroker.broker.topic.TopicRegistry;

import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.UUID;
import java.util.function.Predicate;

/**
 * What a consumer group's members subscribe to and the target assignment it leads to (Kafka's
 * TargetAssignmentBuilder with the subscription side of its GroupMetadataManager). Subscriptions by regular
 * expression are resolved here, on the broker, against the topics it knows, as KIP-848 has it, in RE2/J's syntax
 * as Kafka compiles them (the same library): no backreferences or lookaround (INVALID_REGULAR_EXPRESSION), and
 * matching in time linear in the topic name, so no pattern can hold the coordinator's thread by backtracking.
 * Internal topics never match a regex.
 */
final class TargetAssignmentBuilder {

    private final TopicRegistry topics;
    private final Map<String, ConsumerGroupAssignor> assignors;
    private final ConsumerGroupAssignor defaultAssignor;

    TargetAssignmentBuilder(TopicRegistry topics, List<String> assignorNames) {
        this.topics = topics;
        Map<String, ConsumerGroupAssignor> byName = new LinkedHashMap<>();
        for (String name : assignorNames) {
            ConsumerGroupAssignor assignor = ConsumerGroupAssignor.named(name);
            byName.putIfAbsent(assignor.name(), assignor);
        }
        this.assignors = byName;
        this.defaultAssignor = byName.values().iterator().next();
    }

    /** Whether a member may ask for this assignor by name. */
    boolean supports(String assignor) {
        return assignors.containsKey(assignor);
    }

    Collection<String> assignorNames() {
        return assignors.keySet();
    }

    /** Whether Kafka would take the regex: it must compile (here, in Java's syntax; see the class comment). */
    boolean isValidRegex(String regex) {
        try {
            Pattern.compile(regex);
            return true;
        } catch (PatternSyntaxException e) {
            return false;
        }
    }

    /**
     * The topic names each of the members' regular expressions matches now. Each is compiled again here rather
     * than kept: compiling costs less than the scan of every topic that follows, and a cache keyed by what clients
     * send would grow with every regex any client ever sent.
     */
    Map<String, Set<String>> resolveRegexes(Collection<ConsumerGroupMember> members) {
        Map<String, Set<String>> resolved = new HashMap<>();
        for (ConsumerGroupMember member : members) {
            String regex = member.subscribedTopicRegex;
            if (regex != null && !resolved.containsKey(regex)) {
                Pattern pattern = Pattern.compile(regex);
                Set<String> names = new TreeSet<>();
                for (TopicMetadata topic : topics.allKnown()) {
                    if (!InternalTopics.isInternal(topic.name()) && pattern.matcher(topic.name()).matches()) {
                        names.add(topic.name());
                    }
                }
                resolved.put(regex, names);
            }
        }
        return resolved;
    }

    /**
     * The topics a member holds or is to hold (its assignment, what it still revokes, its target), matched by id:
     * all its regular expression may match after a load until its next heartbeat brings its principal's rights,
     * which the group's records do not keep. A topic deleted and created again under its name is not held.
     */
    Predicate<String> heldTopics(ConsumerGroup group, ConsumerGroupMember member) {
        Set<UUID> held = new HashSet<>(member.assignedPartitions.keySet());
        held.addAll(member.partitionsPendingRevocation.keySet());
        held.addAll(group.targetOf(member.memberId).keySet());
        return name -> topics.known(name).map(topic -> held.contains(topic.id())).orElse(false);
    }

    /** The existing topics the group's members subscribe to, by name: the subscription metadata. */
    Map<String, ConsumerGroup.SubscribedTopic> subscriptionMetadata(ConsumerGroup group,
                                                                    Map<String, Set<String>> regexTopics) {
        Map<String, ConsumerGroup.SubscribedTopic> metadata = new TreeMap<>();
        for (String name : group.subscribedTopicNames(regexTopics)) {
            topics.known(name).ifPresent(topic -> metadata.put(name, ConsumerGroup.SubscribedTopic.of(topic)));
        }
        return metadata;
    }

    /**
     * Computes the group's target assignment for its group epoch, with the assignor its members ask for most
     * (Kafka's rule; the configured default if none asks).
     */
    void computeTarget(ConsumerGroup group, Map<String, Set<String>> regexTopics) {
        ConsumerGroupAssignor assignor = preferredAssignor(group);
        Map<UUID, Integer> partitions = new HashMap<>();
        group.subscriptionMetadata.values().forEach(topic -> partitions.put(topic.id(), topic.partitions()));
        List<ConsumerGroupAssignor.MemberSpec> specs = new ArrayList<>();
        for (ConsumerGroupMember member : group.allMembers()) {
            Set<UUID> subscribed = new HashSet<>();
            Set<String> names = new HashSet<>();
            member.addSubscribedTopics(regexTopics, names);
            names.forEach(name -> {
                ConsumerGroup.SubscribedTopic topic = group.subscriptionMetadata.get(name);
                if (topic != null) {
                    subscribed.add(topic.id());
                }
            });
            specs.add(new ConsumerGroupAssignor.MemberSpec(member.memberId, member.rackId, subscribed,
                    group.targetOf(member.memberId)));
        }
        Map<String, Map<UUID, Set<Integer>>> target = assignor.assign(specs, partitions);
        group.targetAssignment.clear();
        group.targetAssignment.putAll(target);
        group.assignmentEpoch = group.groupEpoch;
    }

    /**
     * The assignor the group's members ask for most, else the first of {@code group.consumer.assignors}: what
     * computes its target, and the name ConsumerGroupDescribe gives (Kafka's preferred server assignor). The caller
     * holds the group's lock.
     */
    ConsumerGroupAssignor preferredAssignor(ConsumerGroup group) {
        Map<String, Integer> votes = new HashMap<>();
        for (ConsumerGroupMember member : group.allMembers()) {
            if (member.serverAssignor != null && assignors.containsKey(member.serverAssignor)) {
                votes.merge(member.serverAssignor, 1, Integer::sum);
            }
        }
        return votes.entrySet().stream()
                .max(Map.Entry.<String, Integer>comparingByValue().thenComparing(Map.Entry.comparingByKey()))
                .map(e -> assignors.get(e.getKey())).orElse(defaultAssignor);
    }
}
