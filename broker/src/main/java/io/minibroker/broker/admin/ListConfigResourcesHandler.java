package io.minibroker.broker.admin;

import io.minibroker.broker.api.ApiHandler;
import io.minibroker.broker.api.RequestContext;
import io.minibroker.broker.clientmetrics.ClientMetricsSubscriptions;
import io.minibroker.broker.metadata.BrokerDirectory;
import io.minibroker.broker.sharegroup.GroupConfigs;
import io.minibroker.protocol.error.Errors;
import io.minibroker.protocol.message.Request;
import io.minibroker.protocol.message.view.ListConfigResourcesRequestView;
import io.minibroker.protocol.message.view.ListConfigResourcesResponseView;
import io.minibroker.protocol.schema.Struct;

import java.util.Collection;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.function.Supplier;

/**
 * ListConfigResources (KIP-1142; v0 was KIP-714's ListClientMetricsResources): the resources a DescribeConfigs could
 * be asked about, as Kafka 4.3's KafkaApis lists them. v0 knows only CLIENT_METRICS; v1 also topics, brokers, broker
 * loggers and groups, every one of them when the request names no type. A type the version does not know refuses the
 * whole request with UNSUPPORTED_VERSION. Listed in Kafka's order: the groups that have configs set, the client
 * metrics subscriptions (a single node's; none yet in a cluster, see docs/compatibility.md), each unfenced broker on the
 * request's listener as a broker logger, then as a broker, then every topic. {@code kafka-configs --describe
 * --entity-type groups} without a name and {@code kafka-client-metrics --list} ask this first.
 */
public final class ListConfigResourcesHandler implements ApiHandler {

    private static final Set<Byte> V0_TYPES = Set.of(ConfigResources.CLIENT_METRICS);
    private static final List<Byte> V1_TYPES = List.of(ConfigResources.TOPIC, ConfigResources.BROKER,
            ConfigResources.BROKER_LOGGER, ConfigResources.CLIENT_METRICS, ConfigResources.GROUP);

    private final Supplier<Collection<String>> topicNames;
    private final BrokerDirectory brokers;
    private final GroupConfigs groups;
    private final ClientMetricsSubscriptions clientMetrics;

    /**
     * @param topicNames every topic's name (a single node's own, a cluster broker's image's)
     * @param groups the group configs set (a cluster broker's mirror of its image)
     */
    public ListConfigResourcesHandler(Supplier<Collection<String>> topicNames, BrokerDirectory brokers,
                                      GroupConfigs groups) {
        this(topicNames, brokers, groups, null);
    }

    /**
     * As above, and the CLIENT_METRICS subscriptions {@code clientMetrics} holds (a cluster broker's: the image's
     * mirror).
     */
    public ListConfigResourcesHandler(Supplier<Collection<String>> topicNames, BrokerDirectory brokers,
                                      GroupConfigs groups, ClientMetricsSubscriptions clientMetrics) {
        this.topicNames = topicNames;
        this.brokers = brokers;
        this.groups = groups;
        this.clientMetrics = clientMetrics;
    }

    @Override
    public CompletionStage<Struct> handle(RequestContext context, Request request) {
        Collection<Byte> supported = request.version() == 0 ? V0_TYPES : V1_TYPES;
        List<Byte> asked = new ListConfigResourcesRequestView(request.body()).resourceTypes(); // v1+; empty at v0
        Collection<Byte> types = asked.isEmpty() ? supported : asked;
        ListConfigResourcesResponseView response = new ListConfigResourcesResponseView();
        if (!supported.containsAll(types)) {
            return CompletableFuture.completedFuture(response.errorCode(Errors.UNSUPPORTED_VERSION.code()).struct());
        }
        if (types.contains(ConfigResources.GROUP)) {
            groups.all().keySet().forEach(group -> add(response, group, ConfigResources.GROUP));
        }
        if (types.contains(ConfigResources.CLIENT_METRICS) && clientMetrics != null) {
            clientMetrics.all().keySet().forEach(name -> add(response, name, ConfigResources.CLIENT_METRICS));
        }
        List<BrokerDirectory.ListedBroker> live = brokers.brokers(context.listenerName(), false);
        if (types.contains(ConfigResources.BROKER_LOGGER)) {
            live.forEach(broker -> add(response, Integer.toString(broker.id()), ConfigResources.BROKER_LOGGER));
        }
        if (types.contains(ConfigResources.BROKER)) {
            live.forEach(broker -> add(response, Integer.toString(broker.id()), ConfigResources.BROKER));
        }
        if (types.contains(ConfigResources.TOPIC)) {
            topicNames.get().forEach(topic -> add(response, topic, ConfigResources.TOPIC));
        }
        return CompletableFuture.completedFuture(response.struct());
    }

    private static void add(ListConfigResourcesResponseView response, String name, byte type) {
        response.addConfigResource().resourceName(name).resourceType(type);
    }
}
