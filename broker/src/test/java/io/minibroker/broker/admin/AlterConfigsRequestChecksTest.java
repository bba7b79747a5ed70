package io.minibroker.broker.admin;

import io.minibroker.broker.api.TestContexts;
import io.minibroker.broker.config.BrokerConfig;
import io.minibroker.broker.sharegroup.GroupConfigs;
import io.minibroker.broker.topic.ConfigurableTopics;
import io.minibroker.protocol.error.Errors;
import io.minibroker.protocol.header.RequestHeader;
import io.minibroker.protocol.message.ApiKey;
import io.minibroker.protocol.message.Request;
import io.minibroker.protocol.schema.Struct;
import org.assertj.core.groups.Tuple;
import org.junit.jupiter.api.Test;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.BiConsumer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;

/**
 * AlterConfigs and IncrementalAlterConfigs refuse what Kafka 4.3.1 refuses before changing anything
 * (ConfigAdminManager.preprocess, then ControllerConfigurationValidator before the existence check), with its codes
 * and messages.
 */
class AlterConfigsRequestChecksTest {

    private static final byte TOPIC = 2;
    private static final byte GROUP = 32;
    private static final byte SET = 0;

    private final Map<String, Map<String, String>> overrides = new HashMap<>(Map.of("orders", Map.of()));
    private final ConfigurableTopics topics = new ConfigurableTopics() {
        @Override
        public Optional<Map<String, String>> overrides(String topic) {
            return Optional.ofNullable(overrides.get(topic));
        }

        @Override
        public Change replaceOverrides(String topic, Map<String, String> changed, boolean validateOnly) {
            if (!validateOnly) {
                overrides.put(topic, changed);
            }
            return new Change(Errors.NONE, null);
        }
    };

    @Test
    void aResourceNamedTwiceIsRefusedInBothPlaces() {
        for (ApiKey api : List.of(ApiKey.ALTER_CONFIGS, ApiKey.INCREMENTAL_ALTER_CONFIGS)) {
            assertThat(alter(api, resource(TOPIC, "orders", "retention.ms", "1000"),
                    resource(TOPIC, "clicks", "retention.ms", "1000"),
                    resource(TOPIC, "orders", "retention.ms", "2000"))).as(api.name()).containsExactly(
                    tuple("orders", Errors.INVALID_REQUEST.code(), "Each resource must appear at most once."),
                    tuple("clicks", Errors.UNKNOWN_TOPIC_OR_PARTITION.code(), "The topic 'clicks' does not exist."),
                    tuple("orders", Errors.INVALID_REQUEST.code(), "Each resource must appear at most once."));
        }
        assertThat(overrides.get("orders")).isEmpty();
    }

    @Test
    void aKeyNamedTwiceOrANullValueIsAnInvalidRequest() {
        for (ApiKey api : List.of(ApiKey.ALTER_CONFIGS, ApiKey.INCREMENTAL_ALTER_CONFIGS)) {
            assertThat(alter(api, resource(TOPIC, "orders", "retention.ms", "1000", "retention.ms", "2000")))
                    .as(api.name()).containsExactly(tuple("orders", Errors.INVALID_REQUEST.code(),
                            "Error due to duplicate config keys"));
            assertThat(alter(api, resource(TOPIC, "orders", "retention.ms", null)))
                    .as(api.name()).containsExactly(tuple("orders", Errors.INVALID_REQUEST.code(),
                            "Null value not supported for : retention.ms"));
        }
    }

    @Test
    void aTopicsNameAndConfigsAreCheckedBeforeItsExistence() {
        for (ApiKey api : List.of(ApiKey.ALTER_CONFIGS, ApiKey.INCREMENTAL_ALTER_CONFIGS)) {
            assertThat(alter(api, resource(TOPIC, "", "retention.ms", "1000"),
                    resource(TOPIC, "bad name", "retention.ms", "1000"),
                    resource(TOPIC, "absent", "segment.ms", "0"),
                    resource(TOPIC, "absent2", "retention.ms", "1000"))).as(api.name())
                    .extracting(t -> tuple(t.toList().get(0), t.toList().get(1))).containsExactly(
                            tuple("", Errors.INVALID_REQUEST.code()),
                            tuple("bad name", Errors.INVALID_TOPIC_EXCEPTION.code()),
                            tuple("absent", Errors.INVALID_CONFIG.code()),
                            tuple("absent2", Errors.UNKNOWN_TOPIC_OR_PARTITION.code()));
        }
        assertThat(alter(ApiKey.ALTER_CONFIGS, resource(TOPIC, "", "retention.ms", "1000"),
                resource(TOPIC, "absent", "retention.ms", "1000"))).containsExactly(
                tuple("", Errors.INVALID_REQUEST.code(), "Default topic resources are not allowed."),
                tuple("absent", Errors.UNKNOWN_TOPIC_OR_PARTITION.code(), "The topic 'absent' does not exist."));
    }

    @Test
    void theDefaultGroupIsRefused() {
        AlterTopicConfigsHandler handler = new AlterTopicConfigsHandler(topics, ApiKey.INCREMENTAL_ALTER_CONFIGS,
                GroupConfigs.mirror(BrokerConfig.of(Map.of())));
        assertThat(alter(handler, ApiKey.INCREMENTAL_ALTER_CONFIGS,
                resource(GROUP, "", "consumer.session.timeout.ms", "45000"))).containsExactly(tuple("",
                Errors.INVALID_REQUEST.code(), "Default group resources are not allowed."));
    }

    /** A resource with configs given as name, value, name, value... (SET in IncrementalAlterConfigs). */
    private static BiConsumer<ApiKey, Struct> resource(byte type, String name, String... configs) {
        return (api, body) -> {
            Struct resource = body.addElement("Resources").set("ResourceType", type).set("ResourceName", name);
            for (int i = 0; i < configs.length; i += 2) {
                Struct config = resource.addElement("Configs").set("Name", configs[i]).set("Value", configs[i + 1]);
                if (api == ApiKey.INCREMENTAL_ALTER_CONFIGS) {
                    config.set("ConfigOperation", SET);
                }
            }
        };
    }

    @SafeVarargs
    private List<Tuple> alter(ApiKey api, BiConsumer<ApiKey, Struct>... resources) {
        return alter(new AlterTopicConfigsHandler(topics, api), api, resources);
    }

    @SafeVarargs
    private static List<Tuple> alter(AlterTopicConfigsHandler handler, ApiKey api, BiConsumer<ApiKey, Struct>... resources) {
        Struct body = api.request().newMessage();
        for (BiConsumer<ApiKey, Struct> resource : resources) {
            resource.accept(api, body);
        }
        Request request = new Request(new RequestHeader(api.id(), (short) 1, 1, "test"), api, body);
        return handler.handle(TestContexts.on("PLAINTEXT"), request).toCompletableFuture().join()
                .getStructs("Responses").stream().map(r -> tuple(r.getString("ResourceName"),
                        r.getInt16("ErrorCode"), r.getString("ErrorMessage"))).toList();
    }
}
