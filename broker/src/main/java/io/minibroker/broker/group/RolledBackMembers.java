package io.minibroker.broker.group;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.BiConsumer;
import java.util.function.Consumer;
import java.util.function.Predicate;

/**
 * The members of a consumer or share group rolled back to its records as last appended (a write refused at its
 * append, as Kafka's coordinator runtime reverts to its last written offset): which member objects the group holds
 * afterwards. A member whose own records are as written keeps its object, and with it its timeouts, which its
 * expiry checks by identity; one the rollback changes or brings back is the rebuilt one, handed to
 * {@code replaced} with the object it replaces (null if it was gone), so that the coordinator ends the old timeouts
 * and starts fresh ones as a load does; one the records do not hold (a join refused) goes to {@code dropped}.
 */
final class RolledBackMembers {

    private RolledBackMembers() {
    }

    /**
     * The group's members after the rollback, in the records' order.
     *
     * @param current  the members now, by id
     * @param recorded the members as the records give them, by id
     */
    static <M> List<M> of(Map<String, M> current, Map<String, M> recorded, Predicate<M> asWritten,
                          BiConsumer<M, M> replaced, Consumer<M> dropped) {
        Map<String, M> left = new HashMap<>(current);
        List<M> members = new ArrayList<>();
        recorded.forEach((memberId, member) -> {
            M now = left.remove(memberId);
            if (now != null && asWritten.test(now)) {
                members.add(now);
            } else {
                replaced.accept(now, member);
                members.add(member);
            }
        });
        left.values().forEach(dropped);
        return members;
    }
}
