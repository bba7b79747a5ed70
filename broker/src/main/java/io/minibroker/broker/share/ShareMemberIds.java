package io.minibroker.broker.share;

/**
 * The member ids the share APIs take (ShareGroupHeartbeat, ShareFetch, ShareAcknowledge): a share consumer makes its
 * own, a UUID's text. Kafka's KafkaApis (isMemberIdValid) refuses any other, empty or longer than 36 characters, as
 * INVALID_REQUEST, before it looks at anything else the request names.
 */
public final class ShareMemberIds {

    /** The longest member id Kafka's KafkaApis takes: a UUID's text. */
    private static final int MAX_LENGTH = 36;

    private ShareMemberIds() {
    }

    public static boolean isValid(String memberId) {
        return memberId != null && !memberId.isEmpty() && memberId.length() <= MAX_LENGTH;
    }
}
