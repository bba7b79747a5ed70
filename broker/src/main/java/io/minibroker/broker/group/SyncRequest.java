package io.minibroker.broker.group;

import java.util.Map;

/**
 * What a SyncGroup asks for, taken from the request: {@code groupInstanceId} null before v3, {@code protocolType}
 * and {@code protocolName} null before v5 (or if the client sends none: nothing to check then).
 */
record SyncRequest(String groupId, int generationId, String memberId, String groupInstanceId, String protocolType,
                   String protocolName, Map<String, byte[]> assignments) {

    /**
     * Kafka's isProtocolInconsistent for either value: the request names a protocol type or name other than
     * {@code protocolType} or {@code protocolName}, where both are known.
     */
    boolean inconsistentWith(String protocolType, String protocolName) {
        return differs(this.protocolType, protocolType) || differs(this.protocolName, protocolName);
    }

    private static boolean differs(String requested, String actual) {
        return requested != null && actual != null && !requested.equals(actual);
    }
}
