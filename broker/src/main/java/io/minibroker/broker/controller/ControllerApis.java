package io.minibroker.broker.controller;

import io.minibroker.broker.api.ApiVersionsHandler;
import io.minibroker.broker.api.DiskBoundHandler;
import io.minibroker.broker.api.SupportedApis;
import io.minibroker.broker.config.BrokerConfig;
import io.minibroker.protocol.message.ApiKey;

import java.util.concurrent.Executor;

/**
 * What the controller's listener ({@code controller.listener.names}) serves: only the requests brokers send their
 * controller, as Kafka's controller listener does; clients are never told of this listener.
 */
public final class ControllerApis {

    private ControllerApis() {
    }

    /** @param disk where CreateTopics and AlterPartition run, since they write and fsync the topic's file */
    public static SupportedApis create(BrokerConfig config, BrokerMembership membership,
                                       TopicAssignments assignments, Executor disk) {
        String clusterId = config.get(BrokerConfig.CLUSTER_ID);
        SupportedApis apis = new SupportedApis();
        return apis.add(ApiKey.API_VERSIONS, new ApiVersionsHandler(apis, clusterId, config.get(BrokerConfig.NODE_ID)))
                .add(ApiKey.BROKER_REGISTRATION, new BrokerRegistrationHandler(clusterId, membership))
                .add(ApiKey.BROKER_HEARTBEAT, new BrokerHeartbeatHandler(membership))
                .add(ApiKey.METADATA, new ControllerMetadataHandler(clusterId, assignments))
                .add(ApiKey.CREATE_TOPICS, DiskBoundHandler.on(disk)
                        .apply(new ControllerCreateTopicsHandler(assignments, config)))
                .add(ApiKey.ALTER_PARTITION, DiskBoundHandler.on(disk).apply(new AlterPartitionHandler(membership, assignments)));
    }
}
