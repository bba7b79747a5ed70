package io.minibroker.broker.admin;

import io.minibroker.broker.quota.ClientQuotas;
import io.minibroker.broker.quota.ControllerMutationQuotas;
import io.minibroker.broker.api.TestContexts;
import io.minibroker.broker.topic.DeletableTopics;
import io.minibroker.protocol.error.Errors;
import io.minibroker.protocol.frame.Frames;
import io.minibroker.protocol.header.RequestHeader;
import io.minibroker.protocol.message.ApiKey;
import io.minibroker.protocol.message.MessageCodec;
import io.minibroker.protocol.message.Request;
import io.minibroker.protocol.schema.Struct;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import org.junit.jupiter.api.Test;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.function.Consumer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;

/** DeleteTopics v6's edges, where one request names a topic both by its name and by its id. */
class DeleteTopicsHandlerTest {

    private static final UUID ORDERS = new UUID(1, 1);
    private static final UUID CLICKS = new UUID(2, 2);

    private final InMemoryTopics topics = new InMemoryTopics(Map.of("orders", ORDERS, "clicks", CLICKS));
    /** No client quota set: no controller_mutation_rate applies. */
    private static final ControllerMutationQuotas NO_QUOTAS =
            new ControllerMutationQuotas(ClientQuotas.mirror(), () -> 0, 11, 1);
    private final DeleteTopicsHandler handler = new DeleteTopicsHandler(topics, true, NO_QUOTAS);

    @Test
    void aTopicGivenByNameAndByIdIsNotDeletedAndOnlyTheNameGetsAnError() {
        List<Struct> results = delete(request -> {
            byId(request, ORDERS);
            byName(request, "orders");
            byName(request, "clicks");
        });

        assertThat(results).hasSize(2);
        assertThat(results.get(0).getString("Name")).isEqualTo("orders");
        assertThat(results.get(0).getInt16("ErrorCode")).isEqualTo(Errors.INVALID_REQUEST.code());
        assertThat(results.get(0).getString("ErrorMessage"))
                .isEqualTo("The provided topic name maps to an ID that was already supplied.");
        assertThat(results.get(0).getUuid("TopicId")).as("the id the name maps to").isEqualTo(ORDERS);
        assertThat(results.get(1).getString("Name")).isEqualTo("clicks");
        assertThat(results.get(1).getInt16("ErrorCode")).isEqualTo(Errors.NONE.code());
        assertThat(topics.names).containsOnlyKeys("orders");
    }

    @Test
    void anIdGivenTwiceAndAlsoByNameIsRefusedOnBothCounts() {
        List<Struct> results = delete(request -> {
            byName(request, "orders");
            byId(request, ORDERS);
            byId(request, ORDERS);
        });

        assertThat(results).extracting(result -> result.getString("ErrorMessage")).containsExactly(
                "The provided topic name maps to an ID that was already supplied.", "Duplicate topic id.");
        assertThat(results).allSatisfy(result ->
                assertThat(result.getInt16("ErrorCode")).isEqualTo(Errors.INVALID_REQUEST.code()));
        assertThat(topics.names).containsKeys("orders");
    }

    @Test
    void aNameGivenTwiceLeavesTheSameTopicsIdFreeToDeleteIt() {
        List<Struct> results = delete(request -> {
            byName(request, "orders");
            byName(request, "orders");
            byId(request, ORDERS);
        });

        assertThat(results).extracting(result -> Errors.forCode(result.getInt16("ErrorCode")))
                .containsExactly(Errors.INVALID_REQUEST, Errors.NONE);
        assertThat(topics.names).doesNotContainKey("orders");
    }

    @Test
    void beforeV6ANameGivenTwiceIsRefusedOnceWithKafkasMessageFromV5() {
        for (short version : new short[] {4, 5}) {
            Struct body = ApiKey.DELETE_TOPICS.request().newMessage().set("TimeoutMs", 1_000)
                    .set("TopicNames", List.of("orders", "orders"));
            List<Struct> results = send(handler, body, version);
            assertThat(results).as("v" + version).singleElement().satisfies(result -> {
                assertThat(result.getInt16("ErrorCode")).isEqualTo(Errors.INVALID_REQUEST.code());
                if (version >= 5) {
                    assertThat(result.getString("ErrorMessage")).isEqualTo("Duplicate topic name.");
                }
            });
        }
        assertThat(topics.names).containsKey("orders");
    }

    @Test
    void withDeletionDisabledEveryEntryIsAnsweredRepeatsIncluded() {
        DeleteTopicsHandler disabled = new DeleteTopicsHandler(topics, false, NO_QUOTAS);
        Struct names = ApiKey.DELETE_TOPICS.request().newMessage().set("TimeoutMs", 1_000)
                .set("TopicNames", List.of("orders", "orders", "clicks"));
        assertThat(send(disabled, names, (short) 5)).extracting(r -> r.getString("Name"), r -> r.getInt16("ErrorCode"))
                .containsExactly(tuple("orders", Errors.TOPIC_DELETION_DISABLED.code()),
                        tuple("orders", Errors.TOPIC_DELETION_DISABLED.code()),
                        tuple("clicks", Errors.TOPIC_DELETION_DISABLED.code()));
        Struct states = ApiKey.DELETE_TOPICS.request().newMessage().set("TimeoutMs", 1_000);
        byName(states, "orders");
        byName(states, "orders");
        assertThat(send(disabled, states, (short) 6)).hasSize(2);
        assertThat(topics.names).containsKeys("orders", "clicks");
    }

    private static List<Struct> send(DeleteTopicsHandler handler, Struct body, short version) {
        ByteBuf encoded = MessageCodec.encodeRequest(ByteBufAllocator.DEFAULT,
                new RequestHeader(ApiKey.DELETE_TOPICS.id(), version, 1, "test"), body);
        Request request = MessageCodec.decodeRequest(Frames.readFrame(encoded, Integer.MAX_VALUE));
        return handler.handle(TestContexts.on("PLAINTEXT"), request).toCompletableFuture().join()
                .getStructs("Responses");
    }

    private static void byName(Struct request, String name) {
        request.addElement("Topics").set("Name", name);
    }

    private static void byId(Struct request, UUID id) {
        request.addElement("Topics").set("Name", null).set("TopicId", id);
    }

    private List<Struct> delete(Consumer<Struct> topicsToDelete) {
        Struct body = ApiKey.DELETE_TOPICS.request().newMessage().set("TimeoutMs", 1_000);
        topicsToDelete.accept(body);
        ByteBuf encoded = MessageCodec.encodeRequest(ByteBufAllocator.DEFAULT,
                new RequestHeader(ApiKey.DELETE_TOPICS.id(), (short) 6, 1, "test"), body);
        Request request = MessageCodec.decodeRequest(Frames.readFrame(encoded, Integer.MAX_VALUE));
        return handler.handle(TestContexts.on("PLAINTEXT"), request).toCompletableFuture().join()
                .getStructs("Responses");
    }

    /** Topics by name, each with its id; deleting one forgets it. */
    private static final class InMemoryTopics implements DeletableTopics {
        final Map<String, UUID> names;

        InMemoryTopics(Map<String, UUID> names) {
            this.names = new HashMap<>(names);
        }

        @Override
        public Optional<UUID> idOf(String name) {
            return Optional.ofNullable(names.get(name));
        }

        @Override
        public Optional<String> nameOf(UUID id) {
            return names.entrySet().stream().filter(e -> e.getValue().equals(id)).map(Map.Entry::getKey).findFirst();
        }

        @Override
        public int partitionCount(String name) {
            return names.containsKey(name) ? 1 : -1;
        }

        @Override
        public Errors delete(String name) {
            return names.remove(name) != null ? Errors.NONE : Errors.UNKNOWN_TOPIC_OR_PARTITION;
        }
    }
}
