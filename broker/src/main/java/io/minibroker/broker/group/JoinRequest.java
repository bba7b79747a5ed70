package io.minibroker.broker.group;

import java.util.LinkedHashMap;

/** What a JoinGroup asks for, taken from the request. */
record JoinRequest(String groupId, String memberId, String groupInstanceId, String clientId, String clientHost,
                   int sessionTimeoutMs, int rebalanceTimeoutMs, String protocolType,
                   LinkedHashMap<String, byte[]> protocols, short version) {
}
