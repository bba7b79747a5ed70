package io.minibroker.broker.share;

import io.minibroker.broker.log.PartitionLog;

import java.time.Duration;
import java.time.format.DateTimeParseException;
import java.util.OptionalLong;

/**
 * The group config {@code share.auto.offset.reset}: where a share partition with no state yet starts, as Kafka's
 * ShareGroupAutoOffsetResetStrategy: at the high watermark ({@code latest}, the default), at the log start
 * ({@code earliest}), or at the first record no older than a duration ({@code by_duration:PnDTnHnMn.nS}).
 *
 * <p>A worked example of {@code by_duration:PT1H}: a share partition first fetched at 12:00 (the broker's wall
 * clock) starts at the first record stamped 11:00 or later, found as ListOffsets finds a timestamp (the first segment
 * whose largest timestamp reaches it, then its first such record). If no record below the high watermark is that
 * recent, Kafka 4.3.1's initialization fails (OffsetNotAvailableException: the share partition is not made, and
 * the group has no start offset for it) and the next fetch tries again, against a later "now": the consumer gets
 * nothing until a record newer than the duration arrives, and then starts there.
 *
 * @param duration how far back {@link Strategy#BY_DURATION} starts; null for the other two
 */
public record ShareAutoOffsetReset(Strategy strategy, Duration duration) {

    public enum Strategy { LATEST, EARLIEST, BY_DURATION }

    public static final ShareAutoOffsetReset LATEST = new ShareAutoOffsetReset(Strategy.LATEST, null);
    public static final ShareAutoOffsetReset EARLIEST = new ShareAutoOffsetReset(Strategy.EARLIEST, null);

    private static final String BY_DURATION = "by_duration:";

    /**
     * The strategy a (trimmed) value names, or null where Kafka 4.3.1's validator refuses it: its words in lower
     * case only ({@code LATEST} and {@code BY_DURATION:PT1M} are refused, {@code none} too: a share group always
     * starts somewhere), the duration as {@link Duration#parse} reads it (letters in either case, {@code PT0S}
     * included) and not negative.
     */
    public static ShareAutoOffsetReset parse(String value) {
        if (value.equals("latest")) {
            return LATEST;
        }
        if (value.equals("earliest")) {
            return EARLIEST;
        }
        if (!value.startsWith(BY_DURATION)) {
            return null;
        }
        try {
            Duration duration = Duration.parse(value.substring(BY_DURATION.length()));
            return duration.isNegative() ? null : new ShareAutoOffsetReset(Strategy.BY_DURATION, duration);
        } catch (DateTimeParseException e) {
            return null;
        }
    }

    /**
     * Where a new share partition of {@code log} starts when the wall clock reads {@code wallClockMs}; empty for
     * {@code by_duration} when no record below the high watermark is recent enough (see the class comment).
     */
    OptionalLong startOffset(PartitionLog log, long wallClockMs) {
        return switch (strategy) {
            case LATEST -> OptionalLong.of(log.highWatermark());
            case EARLIEST -> OptionalLong.of(log.logStartOffset());
            case BY_DURATION -> {
                // A duration reaching before the epoch asks for every record (Kafka's Instant.minus would go negative,
                // where ListOffsets' special timestamps live).
                long since = duration.compareTo(Duration.ofMillis(wallClockMs)) >= 0 ? 0
                        : wallClockMs - duration.toMillis();
                long highWatermark = log.highWatermark();
                yield log.offsetForTimestamp(since).filter(found -> found.offset() < highWatermark)
                        .map(found -> OptionalLong.of(found.offset())).orElse(OptionalLong.empty());
            }
        };
    }
}
