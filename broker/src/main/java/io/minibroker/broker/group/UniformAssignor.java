package io.minibroker.broker.group;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;

/**
 * Kafka's default server-side "uniform" assignor: spreads the subscribed partitions as evenly as the
 * subscriptions allow while moving as few as it can (sticky). Each member keeps the partitions of its current target
 * that it still subscribes to, up to its fair share; the partitions left go one by one to the subscribed member with
 * the fewest; then, while some member has two more than another member that could take one of its partitions, one
 * moves. Kafka's implementation differs in its details; the outcome it aims for, balanced and sticky, is the same.
 * Like Kafka 4.x's built-in assignors it ignores the members' racks (its SubscribedTopicDescriber offers the
 * partitions' racks to custom assignors only, and this broker has no custom assignors).
 */
final class UniformAssignor implements ConsumerGroupAssignor {

    static final String NAME = "uniform";

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public Map<String, Map<UUID, Set<Integer>>> assign(List<MemberSpec> members, Map<UUID, Integer> partitions) {
        Map<String, Map<UUID, Set<Integer>>> result = new HashMap<>();
        if (members.isEmpty()) {
            return result;
        }
        Map<String, MemberSpec> specs = new HashMap<>();
        Map<String, Set<Partition>> owned = new HashMap<>();
        members.forEach(member -> {
            specs.put(member.memberId(), member);
            owned.put(member.memberId(), new HashSet<>());
        });
        List<Partition> all = new ArrayList<>();
        partitions.entrySet().stream().sorted(Map.Entry.comparingByKey())
                .forEach(e -> {
                    for (int p = 0; p < e.getValue(); p++) {
                        all.add(new Partition(e.getKey(), p));
                    }
                });
        int fairShare = (all.size() + members.size() - 1) / members.size();
        Set<Partition> taken = new HashSet<>();
        // Sticky: what each member has now and still subscribes to, up to the fair share.
        for (MemberSpec member : members) {
            member.current().forEach((topic, numbers) -> numbers.stream().sorted().forEach(p -> {
                Partition partition = new Partition(topic, p);
                if (member.subscribedTopics().contains(topic) && p < partitions.getOrDefault(topic, 0)
                        && owned.get(member.memberId()).size() < fairShare && taken.add(partition)) {
                    owned.get(member.memberId()).add(partition);
                }
            }));
        }
        Comparator<String> fewest = Comparator.<String>comparingInt(m -> owned.get(m).size())
                .thenComparing(Comparator.naturalOrder());
        for (Partition partition : all) {
            if (taken.contains(partition)) {
                continue;
            }
            specs.values().stream().filter(m -> m.subscribedTopics().contains(partition.topic()))
                    .map(MemberSpec::memberId).min(fewest).ifPresent(m -> {
                        owned.get(m).add(partition);
                        taken.add(partition);
                    });
        }
        balance(specs, owned, fewest);
        owned.forEach((member, set) -> {
            Map<UUID, Set<Integer>> assignment = new HashMap<>();
            set.forEach(p -> assignment.computeIfAbsent(p.topic(), t -> new HashSet<>()).add(p.partition()));
            result.put(member, TopicAssignment.copyOf(assignment));
        });
        return result;
    }

    /** Moves one partition at a time from a member with two or more above another that subscribes to its topic. */
    private static void balance(Map<String, MemberSpec> specs, Map<String, Set<Partition>> owned,
                                Comparator<String> fewest) {
        boolean moved = true;
        while (moved) {
            moved = false;
            List<String> byLoad = new ArrayList<>(owned.keySet());
            byLoad.sort(fewest.reversed());
            List<String> lightestFirst = new ArrayList<>(byLoad);
            lightestFirst.sort(fewest);
            outer:
            for (String from : byLoad) {
                for (Partition partition : owned.get(from).stream().sorted().toList()) {
                    for (String to : lightestFirst) {
                        if (owned.get(to).size() + 1 < owned.get(from).size()
                                && specs.get(to).subscribedTopics().contains(partition.topic())) {
                            owned.get(from).remove(partition);
                            owned.get(to).add(partition);
                            moved = true;
                            break outer;
                        }
                    }
                }
            }
        }
    }

    private record Partition(UUID topic, int partition) implements Comparable<Partition> {
        @Override
        public int compareTo(Partition other) {
            int byTopic = topic.compareTo(other.topic);
            return byTopic != 0 ? byTopic : Integer.compare(partition, other.partition);
        }
    }
}
