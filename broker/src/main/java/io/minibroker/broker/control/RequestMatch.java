package io.minibroker.broker.control;

import io.minibroker.protocol.message.ApiKey;

/**
 * Which requests a rule or a query of the request log means: every part left null matches anything. Built
 * fluently: {@code RequestMatch.api(ApiKey.PRODUCE).topic("orders").partition(3)}.
 *
 * @param partition a partition of {@code topic}; set only with a topic
 * @param connection the client's address as the broker sees it ({@code host:port}, see {@link RequestFacts})
 */
public record RequestMatch(ApiKey api, String topic, Integer partition, String group, String clientId,
                           String connection) {

    public RequestMatch {
        if (partition != null && topic == null) {
            throw new IllegalArgumentException("a partition is matched only with its topic");
        }
    }

    /** Every request. */
    public static RequestMatch any() {
        return new RequestMatch(null, null, null, null, null, null);
    }

    /** Every request of this API. */
    public static RequestMatch api(ApiKey api) {
        return any().andApi(api);
    }

    public RequestMatch andApi(ApiKey value) {
        return new RequestMatch(value, topic, partition, group, clientId, connection);
    }

    public RequestMatch topic(String value) {
        return new RequestMatch(api, value, partition, group, clientId, connection);
    }

    public RequestMatch partition(int value) {
        return new RequestMatch(api, topic, value, group, clientId, connection);
    }

    public RequestMatch group(String value) {
        return new RequestMatch(api, topic, partition, value, clientId, connection);
    }

    public RequestMatch clientId(String value) {
        return new RequestMatch(api, topic, partition, group, value, connection);
    }

    public RequestMatch connection(String value) {
        return new RequestMatch(api, topic, partition, group, clientId, value);
    }

    public boolean matches(RequestFacts request) {
        return (api == null || api == request.api())
                && (topic == null || request.names(topic, partition))
                && (group == null || request.groups().contains(group))
                && (clientId == null || clientId.equals(request.clientId()))
                && (connection == null || connection.equals(request.connection()));
    }
}
