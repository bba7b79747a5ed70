package io.minibroker.broker.share;

import java.util.List;

/**
 * One AcknowledgementBatch of a ShareFetch or ShareAcknowledge: a type for the whole range, or one per offset.
 */
public record Acknowledgement(long firstOffset, long lastOffset, List<Byte> types) {

    /** The type of {@code offset}, or null when the id is not one Kafka defines. */
    AcknowledgeType typeOf(long offset) {
        byte id = types.size() == 1 ? types.get(0) : types.get((int) (offset - firstOffset));
        return AcknowledgeType.forId(id);
    }

    /** Whether the batch releases {@code offset}. */
    boolean releases(long offset) {
        return offset >= firstOffset && offset <= lastOffset && typeOf(offset) == AcknowledgeType.RELEASE;
    }

    /** Whether the batch releases any offset. */
    boolean releasesAny() {
        return types.contains(AcknowledgeType.RELEASE.id());
    }

    /** Whether the batch renews a lock, which then needs a new expiry. */
    boolean renewsAny() {
        return types.contains(AcknowledgeType.RENEW.id());
    }

    /** Whether the batch is well formed: a range, and one type or exactly one per offset. */
    boolean isValid() {
        if (firstOffset < 0 || lastOffset < firstOffset || types.isEmpty()) {
            return false;
        }
        if (types.size() != 1 && types.size() != lastOffset - firstOffset + 1) {
            return false;
        }
        for (long offset = firstOffset; offset <= lastOffset; offset++) {
            if (typeOf(offset) == null) {
                return false;
            }
            if (types.size() == 1) {
                break;
            }
        }
        return true;
    }
}
