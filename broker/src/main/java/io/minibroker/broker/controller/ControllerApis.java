package io.minibroker.broker.controller;

import io.minibroker.broker.api.ApiVersionsHandler;
import io.minibroker.broker.api.SupportedApis;
import io.minibroker.protocol.message.ApiKey;

/**
 * What the controller's listener ({@code controller.listener.names}) serves: only the requests brokers send their
 * controller, as Kafka's controller listener does; clients are never told of this listener.
 */
public final class ControllerApis {

    private ControllerApis() {
    }

    public static SupportedApis create(String clusterId, int nodeId, BrokerMembership membership) {
        SupportedApis apis = new SupportedApis();
        return apis.add(ApiKey.API_VERSIONS, new ApiVersionsHandler(apis, clusterId, nodeId))
                .add(ApiKey.BROKER_REGISTRATION, new BrokerRegistrationHandler(clusterId, membership))
                .add(ApiKey.BROKER_HEARTBEAT, new BrokerHeartbeatHandler(membership));
    }
}
