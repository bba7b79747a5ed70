package io.minibroker.broker.group;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.UUID;

/**
 * Kafka's server-side "range" assignor: topic by topic, its subscribers (by member id) each get a contiguous range
 * of its partitions, the first {@code partitions % subscribers} of them one more; so members subscribed to the same
 * topics get the same partition numbers of each (co-partitioning).
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
            List<String> subscribers = new ArrayList<>();
            members.stream().filter(m -> m.subscribedTopics().contains(topic))
                    .forEach(m -> subscribers.add(m.memberId()));
            subscribers.sort(null);
            if (subscribers.isEmpty()) {
                return;
            }
            int quota = count / subscribers.size();
            int extra = count % subscribers.size();
            int next = 0;
            for (int i = 0; i < subscribers.size(); i++) {
                int size = quota + (i < extra ? 1 : 0);
                Set<Integer> range = new TreeSet<>();
                for (int p = next; p < next + size; p++) {
                    range.add(p);
                }
                next += size;
                result.get(subscribers.get(i)).put(topic, range);
            }
        });
        Map<String, Map<UUID, Set<Integer>>> copies = new HashMap<>();
        result.forEach((member, assignment) -> copies.put(member, TopicAssignment.copyOf(assignment)));
        return copies;
    }
}
