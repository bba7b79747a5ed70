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
    /** The subscribed topics' {@link MetadataHash}es. */
    private final TopicHashCache hashes;
    private final Map<String, ConsumerGroupAssignor> assignors;
    private final ConsumerGroupAssignor defaultAssignor;

    TargetAssignmentBuilder(TopicRegistry topics, TopicHashCache hashes, List<String> assignorNames) {
        this.topics = topics;
        this.hashes = hashes;
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
     * The topic names each of the group's members' regular expressions matches now. A regex is matched against every
     * topic only when the known topics changed since the group's last look or no member had it then; only the
     * members' current regexes are kept, so what is kept does not grow with every regex a client ever sent. The
     * caller holds the group's lock.
     */
    Map<String, Set<String>> resolveRegexes(ConsumerGroup group) {
        long version = topics.version(); // read before the topics: a change meanwhile moves it past what is kept
        Map<String, Set<String>> known = group.topicsVersion == version ? group.resolvedRegexes : Map.of();
        if (group.topicsVersion != version) {
            group.subscribedNames = Set.of(); // the subscription metadata is to be looked up again too
        }
        Map<String, Set<String>> resolved = new HashMap<>();
        for (ConsumerGroupMember member : group.allMembers()) {
            String regex = member.subscribedTopicRegex;
            if (regex != null && !resolved.containsKey(regex)) {
                Set<String> names = known.get(regex);
                resolved.put(regex, names != null ? names : matching(Pattern.compile(regex)));
            }
        }
        group.resolvedRegexes = resolved;
        group.topicsVersion = version;
        return resolved;
    }

    private Set<String> matching(Pattern pattern) {
        Set<String> names = new TreeSet<>();
        for (TopicMetadata topic : topics.allKnown()) {
            if (!InternalTopics.isInternal(topic.name()) && pattern.matcher(topic.name()).matches()) {
                names.add(topic.name());
            }
        }
        return names;
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

    /**
     * The existing topics the group's members subscribe to, by name: the subscription metadata. Looked up again only
     * when the subscribed names or the known topics ({@link #resolveRegexes}, called first, tells) changed since the
     * group's last look; otherwise it is what the group has. The caller holds the group's lock.
     */
    Map<String, ConsumerGroup.SubscribedTopic> subscriptionMetadata(ConsumerGroup group,
                                                                    Map<String, Set<String>> regexTopics) {
        Set<String> names = group.subscribedTopicNames(regexTopics);
        if (names.equals(group.subscribedNames)) {
            return group.subscriptionMetadata;
        }
        Map<String, ConsumerGroup.SubscribedTopic> metadata = new TreeMap<>();
        for (String name : names) {
            topics.known(name).ifPresent(topic -> metadata.put(name, ConsumerGroup.SubscribedTopic.of(topic, hashes)));
        }
        group.subscribedNames = names;
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
