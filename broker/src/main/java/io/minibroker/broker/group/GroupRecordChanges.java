package io.minibroker.broker.group;

import java.nio.ByteBuffer;
import java.util.Map;
import java.util.function.Predicate;

/**
 * What a consumer or streams group's heartbeat of one member writes, without encoding every member's records: a
 * heartbeat mostly changes only that member's, and the group's records would otherwise be built and compared in
 * whole (O(group) per heartbeat).
 */
final class GroupRecordChanges {

    private GroupRecordChanges() {
    }

    /**
     * The records of {@code memberNow} (the group's epoch records and one member's, as they are now) that differ from
     * {@code written}, if they are all that member's: {@code written} holds {@code recordCount} records (the whole
     * group as it is, bar that member's changes) and every key of {@code memberNow}. Null otherwise (the member is
     * new or gone, an epoch or another member changed): the whole group is to be compared.
     */
    static Map<ByteBuffer, byte[]> ofOneMember(Map<ByteBuffer, byte[]> written, int recordCount,
                                               Map<ByteBuffer, byte[]> memberNow,
                                               Predicate<ByteBuffer> isMemberRecord) {
        if (written.size() != recordCount || !written.keySet().containsAll(memberNow.keySet())) {
            return null;
        }
        Map<ByteBuffer, byte[]> changes = ConsumerGroupRecords.changed(written, memberNow);
        return changes.keySet().stream().allMatch(isMemberRecord) ? changes : null;
    }
}
