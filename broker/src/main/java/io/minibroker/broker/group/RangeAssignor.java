package io.minibroker.broker.group;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.UUID;

/**
 * Kafka's server-side "range" assignor: topic by topic, each of its subscribers gets {@code partitions / subscribers}
 * of its partitions, the first {@code partitions % subscribers} of them one more, in ranges, so that members
 * subscribed to the same co-partitioned topics get the same partition numbers of each. Sticky as Kafka's is: a
 * subscriber first keeps the lowest of the partitions its current target has of the topic, up to its share (one
 * more while extra partitions are left), and only what nobody kept is handed out, lowest first, to the subscribers
 * short of their share, in member id order.
 */
final class RangeAssignor implements ConsumerGroupAssignor {

    static final String NAME = "range";

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public Map<String, Map<UUID, Set<Integer>>> assign(List<MemberSpec> members, Map<UUID, Integer> partitions) {
        Map<String, Map<UUID, Set<Integer>>> result = new HashMap<>();
        members.forEach(member -> result.put(member.memberId(), new HashMap<>()));
        partitions.forEach((topic, count) -> {
            List<MemberSpec> subscribers = new ArrayList<>(members.stream()
                    .filter(m -> m.subscribedTopics().contains(topic)).toList());
            if (subscribers.isEmpty()) {
                return;
            }
            subscribers.sort((a, b) -> a.memberId().compareTo(b.memberId()));
            assignTopic(topic, count, subscribers, result);
        });
        Map<String, Map<UUID, Set<Integer>>> copies = new HashMap<>();
        result.forEach((member, assignment) -> copies.put(member, TopicAssignment.copyOf(assignment)));
        return copies;
    }

    private static void assignTopic(UUID topic, int count, List<MemberSpec> subscribers,
                                    Map<String, Map<UUID, Set<Integer>>> result) {
        int quota = count / subscribers.size();
        int extra = count % subscribers.size();
        Set<Integer> kept = new HashSet<>();
        Map<String, Set<Integer>> ranges = new HashMap<>();
        List<MemberSpec> belowShare = new ArrayList<>();
        for (MemberSpec member : subscribers) {
            List<Integer> current = new TreeSet<>(member.current().getOrDefault(topic, Set.of())).stream()
                    .filter(p -> p < count && !kept.contains(p)).toList();
            Set<Integer> range = new TreeSet<>(current.subList(0, Math.min(current.size(), quota)));
            if (current.size() > quota && extra > 0) {
                range.add(current.get(quota));
                extra--;
            } else {
                belowShare.add(member); // below its share, or at it and still able to take an extra partition
            }
            kept.addAll(range);
            ranges.put(member.memberId(), range);
        }
        int next = 0;
        for (MemberSpec member : belowShare) {
            Set<Integer> range = ranges.get(member.memberId());
            int wanted = quota - range.size();
            if (extra > 0) {
                wanted++;
                extra--;
            }
            while (wanted > 0) {
                if (!kept.contains(next)) {
                    range.add(next);
                    wanted--;
                }
                next++;
            }
        }
        ranges.forEach((member, range) -> result.get(member).put(topic, range));
    }
}
