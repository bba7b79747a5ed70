package io.minibroker.broker.admin;

import io.minibroker.broker.api.TestContexts;
import io.minibroker.broker.config.BrokerConfig;
import io.minibroker.broker.config.BrokerConfigOverrides;
import io.minibroker.broker.config.ConfigType;
import io.minibroker.broker.metadata.LocalNode;
import io.minibroker.broker.sharegroup.GroupConfigs;
import io.minibroker.protocol.error.Errors;
import io.minibroker.protocol.header.RequestHeader;
import io.minibroker.protocol.message.ApiKey;
import io.minibroker.protocol.message.Request;
import io.minibroker.protocol.message.view.DescribeConfigsRequestView;
import io.minibroker.protocol.message.view.DescribeConfigsResponseView;
import io.minibroker.protocol.message.view.DescribeConfigsResponseView.DescribeConfigsResourceResult;
import io.minibroker.protocol.message.view.DescribeConfigsResponseView.DescribeConfigsResult;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;
import java.util.Optional;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;

/** DescribeConfigs at the edges Kafka's ConfigHelper.describeConfigs draws for topics and groups. */
class DescribeConfigsEdgesTest {

    private static final byte TOPIC = 2;
    private static final byte BROKER = 4;
    private static final byte GROUP = 32;

    private final BrokerConfig config = BrokerConfig.of(Map.of());
    private final DescribeConfigsHandler handler = new DescribeConfigsHandler(
            name -> name.equals("orders") ? Optional.of(Map.of()) : Optional.empty(), config,
            new LocalNode(1, "cluster", List::of, null), GroupConfigs.mirror(config));

    @Test
    void noKeysAskedForMeansEveryKey() {
        assertThat(describe(TOPIC, "orders", List.of()).configs()).hasSizeGreaterThan(10)
                .hasSameSizeAs(describe(TOPIC, "orders", null).configs());
        assertThat(describe(GROUP, "g", List.of()).configs()).isNotEmpty()
                .hasSameSizeAs(describe(GROUP, "g", null).configs());
        assertThat(describe(TOPIC, "orders", List.of("retention.ms")).configs()).hasSize(1);
        // An empty list is every key for a broker too (Kafka's ConfigHelperUtils), not none.
        assertThat(describe(BROKER, "1", List.of()).configs()).hasSizeGreaterThan(10)
                .hasSameSizeAs(describe(BROKER, "1", null).configs());
    }

    @Test
    void mapValuedBrokerConfigsAreShownAsKafkaWritesThem() {
        DescribeConfigsHandler withOverrides = new DescribeConfigsHandler(name -> Optional.empty(),
                BrokerConfig.of(Map.of("max.connections.per.ip.overrides", "10.0.0.2:5,10.0.0.1:7")),
                new LocalNode(1, "cluster", List::of, null), GroupConfigs.mirror(config));
        Map<String, String> values = new java.util.HashMap<>();
        describe(withOverrides, BROKER, "1", null).configs().forEach(c -> values.put(c.name(), c.value()));

        // The default as a Kafka 4.3.1 node prints it (its map's order).
        assertThat(values.get("listener.security.protocol.map"))
                .isEqualTo("SASL_SSL:SASL_SSL,PLAINTEXT:PLAINTEXT,SSL:SSL,SASL_PLAINTEXT:SASL_PLAINTEXT");
        assertThat(values.get("max.connections.per.ip.overrides")).isEqualTo("10.0.0.2:5,10.0.0.1:7");
        assertThat(describe(BROKER, "1", List.of("max.connections.per.ip.overrides")).configs().get(0).value())
                .isEmpty();
    }

    @Test
    void badNamesGetKafkasErrors() {
        DescribeConfigsResult illegal = describe(TOPIC, "bad name", null);
        assertThat(illegal.errorCode()).isEqualTo(Errors.INVALID_TOPIC_EXCEPTION.code());
        assertThat(illegal.errorMessage()).isEqualTo("Topic name is invalid: 'bad name' contains one or more"
                + " characters other than ASCII alphanumerics, '.', '_' and '-'");
        DescribeConfigsResult unknown = describe(TOPIC, "absent", null);
        assertThat(unknown.errorCode()).isEqualTo(Errors.UNKNOWN_TOPIC_OR_PARTITION.code());
        assertThat(unknown.errorMessage()).as("the empty string, as a Kafka 4.3.1 node sent it").isEmpty();
        DescribeConfigsResult group = describe(GROUP, "", null);
        assertThat(group.errorCode()).isEqualTo(Errors.INVALID_REQUEST.code());
        assertThat(group.errorMessage()).isEqualTo("Group name must not be empty");
    }

    /**
     * A resource type Kafka does not know (UNKNOWN's 0, or a code it has none for) refuses the whole request, as
     * Kafka's ConfigHelper throws INVALID_REQUEST while it authorizes: every resource, the error's description.
     */
    @Test
    void aResourceTypeKafkaDoesNotKnowRefusesTheWholeRequest() {
        DescribeConfigsRequestView body = new DescribeConfigsRequestView();
        body.addResource().resourceType(TOPIC).resourceName("orders").configurationKeys(null);
        body.addResource().resourceType((byte) 0).resourceName("what").configurationKeys(null);
        Request request = new Request(new RequestHeader(ApiKey.DESCRIBE_CONFIGS.id(), (short) 4, 1, "test"),
                ApiKey.DESCRIBE_CONFIGS, body.struct());
        List<DescribeConfigsResult> results = new DescribeConfigsResponseView(handler.handle(
                TestContexts.on("PLAINTEXT"), request).toCompletableFuture().join()).results();

        String description = "This most likely occurs because of a request being malformed by the client library"
                + " or the message was sent to an incompatible broker. See the broker logs for more details.";
        assertThat(results).extracting(r -> tuple(r.resourceType(), r.resourceName(), r.errorCode(),
                        r.errorMessage(), r.configs().size()))
                .containsExactly(tuple(TOPIC, "orders", Errors.INVALID_REQUEST.code(), description, 0),
                        tuple((byte) 0, "what", Errors.INVALID_REQUEST.code(), description, 0));
    }

    @Test
    void aGroupListsKafkasGroupConfigsWithTheirDefaultSynonyms() {
        DescribeConfigsRequestView body = new DescribeConfigsRequestView().includeSynonyms(true);
        body.addResource().resourceType(GROUP).resourceName("g").configurationKeys(null);
        Request request = new Request(new RequestHeader(ApiKey.DESCRIBE_CONFIGS.id(), (short) 4, 1, "test"),
                ApiKey.DESCRIBE_CONFIGS, body.struct());
        Map<String, List<String>> synonyms = new java.util.TreeMap<>();
        new DescribeConfigsResponseView(handler.handle(TestContexts.on("PLAINTEXT"), request).toCompletableFuture()
                .join()).results().get(0).configs().forEach(c -> synonyms.put(c.name(), c.synonyms().stream()
                        .map(s -> s.name() + "=" + s.value() + "@" + s.source()).toList()));

        // Kafka 4.3.1's GroupConfig.CONFIG_DEF names (its internal assignor-offload ones are not listed).
        assertThat(synonyms.keySet()).containsExactlyElementsOf(GroupConfigs.names()).hasSize(17);
        byte defaultConfig = 5;
        assertThat(synonyms).containsEntry("share.auto.offset.reset", List.of("share.auto.offset.reset=latest@"
                        + defaultConfig))
                .containsEntry("share.isolation.level", List.of("share.isolation.level=read_uncommitted@" + defaultConfig))
                .containsEntry("share.renew.acknowledge.enable",
                        List.of("share.renew.acknowledge.enable=true@" + defaultConfig))
                .containsEntry("consumer.assignment.interval.ms",
                        List.of("group.consumer.assignment.interval.ms=1000@" + defaultConfig))
                .containsEntry("share.session.timeout.ms",
                        List.of("group.share.session.timeout.ms=45000@" + defaultConfig));
    }

    @Test
    void eachConfigHasKafkasTypeAndNoDocumentation() {
        BrokerConfigOverrides stored = BrokerConfigOverrides.mirror(() -> { });
        // Dynamic configs stored for the cluster that this broker does not read: one Kafka types INT, one it types
        // PASSWORD, one it has no definition for.
        stored.install(Map.of("", Map.of("num.io.threads", "4", "ssl.key.password", "secret", "no.such.key", "x")));
        DescribeConfigsHandler withStored = new DescribeConfigsHandler(
                name -> name.equals("orders") ? Optional.of(Map.of()) : Optional.empty(), config,
                new LocalNode(1, "cluster", List::of, null), GroupConfigs.mirror(config), stored,
                RuntimeLoggers.NONE);
        Map<String, DescribeConfigsResourceResult> topic = byName(describe(withStored, TOPIC, "orders", null));
        Map<String, DescribeConfigsResourceResult> broker = byName(describe(withStored, BROKER, "1", null));
        Map<String, DescribeConfigsResourceResult> group = byName(describe(withStored, GROUP, "g", null));

        assertThat(topic.get("retention.bytes").configType()).isEqualTo(ConfigType.LONG.id());
        assertThat(topic.get("cleanup.policy").configType()).isEqualTo(ConfigType.LIST.id());
        assertThat(topic.get("min.cleanable.dirty.ratio").configType()).isEqualTo(ConfigType.DOUBLE.id());
        assertThat(broker.get("advertised.listeners").configType()).isEqualTo(ConfigType.LIST.id());
        assertThat(broker.get("offsets.topic.replication.factor").configType()).isEqualTo(ConfigType.SHORT.id());
        assertThat(group.get("share.isolation.level").configType()).isEqualTo(ConfigType.STRING.id());
        assertThat(group.get("consumer.session.timeout.ms").configType()).isEqualTo(ConfigType.INT.id());
        assertThat(topic.values()).allSatisfy(c -> assertThat(c.documentation()).isNull());
        assertThat(broker.values()).allSatisfy(c -> assertThat(c.documentation()).isNull());

        // Sensitive as Kafka's KafkaConfig.maybeSensitive: a PASSWORD or a config Kafka has no type for.
        assertThat(broker.get("num.io.threads").configType()).isEqualTo(ConfigType.INT.id());
        assertThat(broker.get("num.io.threads").isSensitive()).isFalse();
        assertThat(broker.get("num.io.threads").value()).isEqualTo("4");
        assertThat(broker.get("ssl.key.password").configType()).isEqualTo(ConfigType.PASSWORD.id());
        assertThat(broker.get("ssl.key.password").isSensitive()).isTrue();
        assertThat(broker.get("ssl.key.password").value()).isNull();
        assertThat(broker.get("no.such.key").configType()).isEqualTo(ConfigType.UNKNOWN.id());
        assertThat(broker.get("no.such.key").isSensitive()).isTrue();
        assertThat(broker.get("no.such.key").value()).isNull();
        // The authorizer's keys are not KafkaConfig's: listed only where set, as Kafka lists its config's originals.
        assertThat(broker).doesNotContainKey("super.users");
        assertThat(broker.get("log.retention.ms").isSensitive()).isFalse();
    }

    private static Map<String, DescribeConfigsResourceResult> byName(DescribeConfigsResult result) {
        Map<String, DescribeConfigsResourceResult> configs = new java.util.HashMap<>();
        result.configs().forEach(c -> configs.put(c.name(), c));
        return configs;
    }

    private DescribeConfigsResult describe(byte type, String name, List<String> keys) {
        return describe(handler, type, name, keys);
    }

    private static DescribeConfigsResult describe(DescribeConfigsHandler handler, byte type, String name,
                                                  List<String> keys) {
        DescribeConfigsRequestView body = new DescribeConfigsRequestView();
        body.addResource().resourceType(type).resourceName(name).configurationKeys(keys);
        Request request = new Request(new RequestHeader(ApiKey.DESCRIBE_CONFIGS.id(), (short) 4, 1, "test"),
                ApiKey.DESCRIBE_CONFIGS, body.struct());
        return new DescribeConfigsResponseView(handler.handle(TestContexts.on("PLAINTEXT"), request)
                .toCompletableFuture().join()).results().get(0);
    }
}
