package io.minibroker.broker.group;

/**
 * Which type of group holds an id. A group id names one group, as in Kafka: a request of one group type for an id a
 * group of another type holds is refused with GROUP_ID_NOT_FOUND and Kafka's "Group … is not a … group.", never
 * answered by making a second group of that id. Read without any group's lock, as the registries are.
 */
final class GroupTypes {

    private final ClassicGroups classicGroups;
    private final ConsumerGroups consumerGroups;
    private final ShareGroups shareGroups;
    private final StreamsGroups streamsGroups;

    GroupTypes(ClassicGroups classicGroups, ConsumerGroups consumerGroups, ShareGroups shareGroups,
               StreamsGroups streamsGroups) {
        this.classicGroups = classicGroups;
        this.consumerGroups = consumerGroups;
        this.shareGroups = shareGroups;
        this.streamsGroups = streamsGroups;
    }

    /** Whether a group of that type holds the id. */
    boolean holds(GroupType type, String groupId) {
        return switch (type) {
            case CLASSIC -> classicGroups.get(groupId) != null;
            case CONSUMER -> consumerGroups.get(groupId) != null;
            case SHARE -> shareGroups.get(groupId) != null;
            case STREAMS -> streamsGroups.get(groupId) != null;
        };
    }

    /** Kafka's message for an id no {@code wanted} group has and a group of another type holds; null otherwise. */
    String notA(GroupType wanted, String groupId) {
        if (holds(wanted, groupId)) {
            return null;
        }
        for (GroupType other : GroupType.values()) {
            if (other != wanted && holds(other, groupId)) {
                return "Group " + groupId + " is not a " + wanted.kafkaName + " group.";
            }
        }
        return null;
    }

    /** Kafka's message for an id no group of type {@code wanted} has: of another type, or not found at all. */
    String notFound(GroupType wanted, String groupId) {
        String anotherType = notA(wanted, groupId);
        return anotherType != null ? anotherType : "Group " + groupId + " not found.";
    }
}
