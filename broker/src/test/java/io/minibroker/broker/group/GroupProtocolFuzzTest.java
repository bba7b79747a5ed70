package io.minibroker.broker.group;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import io.minibroker.broker.server.Broker;
import io.minibroker.broker.server.TestBrokers;
import io.minibroker.protocol.error.Errors;
import io.minibroker.protocol.message.ApiKey;
import io.minibroker.protocol.schema.Field;
import io.minibroker.protocol.schema.Struct;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.Unpooled;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.LoggerFactory;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Four clients play members of two groups at once, each step a random group request built from what that
 * client last heard (its member id and generation, sometimes stale or wrong on purpose; static instance ids
 * shared between clients, so they fence each other): joins, syncs, heartbeats, leaves, commits, fetches,
 * describes, deletions. The coordinator must answer every request with one of Kafka's error codes, never
 * UNKNOWN_SERVER_ERROR, a closed connection or a logged error; once the clients go quiet, their sessions end
 * and every group settles Empty or is gone. {@code -Dminibroker.fuzz.seed=N -Dminibroker.fuzz.steps=N} make other
 * choices (the interleaving itself is the scheduler's).
 */
@Timeout(value = 3, unit = TimeUnit.MINUTES)
class GroupProtocolFuzzTest {

    private static final long SEED = Long.getLong("minibroker.fuzz.seed", 20261124L);
    private static final int CLIENTS = 4;
    private static final int STEPS = Integer.getInteger("minibroker.fuzz.steps", 120);
    private static final List<String> GROUPS = List.of("g1", "g2");
    private static final String TOPIC = "t";

    @TempDir
    Path logDir;

    @Test
    void randomInterleavedGroupRequestsAreAnsweredAndGroupsSettle() throws Exception {
        Logger minibroker = (Logger) LoggerFactory.getLogger("io.minibroker");
        ListAppender<ILoggingEvent> logged = new ListAppender<>();
        logged.start();
        minibroker.addAppender(logged);
        ExecutorService clients = Executors.newFixedThreadPool(CLIENTS);
        try (Broker broker = TestBrokers.start(logDir, Map.of("group.initial.rebalance.delay.ms", "0",
                "group.min.session.timeout.ms", "100", "offsets.topic.num.partitions", "2"))) {
            int port = broker.boundPort("PLAINTEXT");
            try (GroupWireClient admin = new GroupWireClient(port)) {
                Struct create = ApiKey.CREATE_TOPICS.request().newMessage().set("timeoutMs", 5000);
                create.addElement("Topics").set("Name", TOPIC).set("NumPartitions", 2)
                        .set("ReplicationFactor", (short) 1);
                admin.call(ApiKey.CREATE_TOPICS, 7, create);
            }
            List<String> unexpected = Collections.synchronizedList(new ArrayList<>());
            List<Future<?>> running = new ArrayList<>();
            for (int c = 0; c < CLIENTS; c++) {
                Member member = new Member(port, new Random(SEED * 31 + c), unexpected);
                running.add(clients.submit(() -> {
                    member.play();
                    return null;
                }));
            }
            for (Future<?> client : running) {
                client.get(2, TimeUnit.MINUTES);
            }
            assertThat(unexpected).as("answers outside Kafka's group errors, seed %d", SEED).isEmpty();

            try (GroupWireClient admin = new GroupWireClient(port)) {
                long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
                List<String> states = describedStates(admin);
                while (!states.stream().allMatch(state -> state.equals("Empty") || state.equals("Dead"))
                        && System.nanoTime() < deadline) {
                    Thread.sleep(100);
                    states = describedStates(admin);
                }
                assertThat(states).as("each group once its members' sessions are over")
                        .allMatch(state -> state.equals("Empty") || state.equals("Dead"));
            }
        } finally {
            clients.shutdownNow();
            minibroker.detachAppender(logged);
        }
        assertThat(List.copyOf(logged.list)).as("errors logged").noneMatch(event -> event.getLevel() == Level.ERROR);
    }

    private static List<String> describedStates(GroupWireClient client) throws Exception {
        Struct describe = ApiKey.DESCRIBE_GROUPS.request().newMessage().set("Groups", GROUPS);
        return client.call(ApiKey.DESCRIBE_GROUPS, 5, describe).getStructs("Groups").stream()
                .map(group -> group.getString("GroupState")).toList();
    }

    /** One client: its connection, its random choices, and what it last heard from each group. */
    private static final class Member {
        private final int port;
        private final Random random;
        private final List<String> unexpected;
        private final String[] memberIds = {"", ""};
        private final int[] generations = {-1, -1};
        private final String[] leaders = {"", ""};

        Member(int port, Random random, List<String> unexpected) {
            this.port = port;
            this.random = random;
            this.unexpected = unexpected;
        }

        void play() throws Exception {
            try (GroupWireClient client = new GroupWireClient(port)) {
                for (int step = 0; step < STEPS; step++) {
                    int g = random.nextInt(GROUPS.size());
                    // A client without a member id mostly joins first, as a consumer would.
                    int pick = memberIds[g].isEmpty() && random.nextInt(3) > 0 ? 0 : random.nextInt(10);
                    ApiKey api = switch (pick) {
                        case 0, 1 -> ApiKey.JOIN_GROUP;
                        case 2, 3 -> ApiKey.SYNC_GROUP;
                        case 4, 5 -> ApiKey.HEARTBEAT;
                        case 6 -> ApiKey.LEAVE_GROUP;
                        case 7 -> ApiKey.OFFSET_COMMIT;
                        case 8 -> ApiKey.OFFSET_FETCH;
                        default -> random.nextInt(4) == 0 ? ApiKey.DELETE_GROUPS : ApiKey.DESCRIBE_GROUPS;
                    };
                    Struct response = switch (api) {
                        case JOIN_GROUP -> join(client, g);
                        case SYNC_GROUP -> client.call(api, 3, sync(g));
                        case HEARTBEAT -> client.call(api, 3, ApiKey.HEARTBEAT.request().newMessage()
                                .set("GroupId", GROUPS.get(g)).set("GenerationId", generation(g))
                                .set("MemberId", memberId(g)).set("GroupInstanceId", instanceId()));
                        case LEAVE_GROUP -> leave(client, g);
                        case OFFSET_COMMIT -> client.call(api, 8, commit(g));
                        case OFFSET_FETCH -> client.call(api, 8, fetch(g));
                        case DELETE_GROUPS -> client.call(api, 2, ApiKey.DELETE_GROUPS.request().newMessage()
                                .set("GroupsNames", List.of(GROUPS.get(g))));
                        default -> client.call(api, 5, ApiKey.DESCRIBE_GROUPS.request().newMessage()
                                .set("Groups", List.of(GROUPS.get(g))));
                    };
                    check(api, response);
                }
            }
        }

        private Struct join(GroupWireClient client, int g) throws Exception {
            Struct request = ApiKey.JOIN_GROUP.request().newMessage().set("GroupId", GROUPS.get(g))
                    .set("SessionTimeoutMs", 200 + random.nextInt(600))
                    .set("RebalanceTimeoutMs", 200 + random.nextInt(600))
                    .set("MemberId", memberId(g)).set("GroupInstanceId", instanceId())
                    .set("ProtocolType", random.nextInt(20) == 0 ? "connect" : "consumer");
            request.addElement("Protocols").set("Name", random.nextInt(10) == 0 ? "roundrobin" : "range")
                    .set("Metadata", subscription());
            Struct response = client.call(ApiKey.JOIN_GROUP, 5, request);
            short error = response.getInt16("ErrorCode");
            if (error == Errors.NONE.code() || error == Errors.MEMBER_ID_REQUIRED.code()) {
                memberIds[g] = response.getString("MemberId");
                generations[g] = response.getInt32("GenerationId");
                leaders[g] = response.getString("Leader");
            }
            return response;
        }

        private Struct sync(int g) {
            Struct request = ApiKey.SYNC_GROUP.request().newMessage().set("GroupId", GROUPS.get(g))
                    .set("GenerationId", generation(g)).set("MemberId", memberId(g))
                    .set("GroupInstanceId", instanceId());
            if (memberIds[g].equals(leaders[g]) || random.nextInt(4) == 0) {
                request.addElement("Assignments").set("MemberId", memberId(g)).set("Assignment", new byte[]{0, 1});
            }
            return request;
        }

        private Struct leave(GroupWireClient client, int g) throws Exception {
            Struct request = ApiKey.LEAVE_GROUP.request().newMessage().set("GroupId", GROUPS.get(g));
            request.addElement("Members").set("MemberId", memberId(g)).set("GroupInstanceId", instanceId());
            Struct response = client.call(ApiKey.LEAVE_GROUP, 3, request);
            memberIds[g] = "";
            generations[g] = -1;
            return response;
        }

        private Struct commit(int g) {
            boolean simple = random.nextInt(3) == 0;
            Struct request = ApiKey.OFFSET_COMMIT.request().newMessage().set("GroupId", GROUPS.get(g))
                    .set("GenerationIdOrMemberEpoch", simple ? -1 : generation(g))
                    .set("MemberId", simple ? "" : memberId(g)).set("GroupInstanceId", simple ? null : instanceId());
            request.addElement("Topics").set("Name", TOPIC).addElement("Partitions")
                    .set("PartitionIndex", random.nextInt(3)).set("CommittedOffset", (long) random.nextInt(100))
                    .set("CommittedMetadata", "");
            return request;
        }

        private Struct fetch(int g) {
            Struct request = ApiKey.OFFSET_FETCH.request().newMessage().set("RequireStable", random.nextBoolean());
            request.addElement("Groups").set("GroupId", GROUPS.get(g)).addElement("Topics").set("Name", TOPIC)
                    .set("PartitionIndexes", List.of(0, 1));
            return request;
        }

        /** The member id last heard, or sometimes none or one never handed out. */
        private String memberId(int g) {
            return switch (random.nextInt(12)) {
                case 0 -> "";
                case 1 -> "stranger-" + random.nextInt(3);
                default -> memberIds[g];
            };
        }

        /** The generation last heard, or sometimes one off either way. */
        private int generation(int g) {
            return generations[g] + (random.nextInt(6) == 0 ? random.nextInt(3) - 1 : 0);
        }

        /** Mostly dynamic members; static ones share two instance ids between all clients. */
        private String instanceId() {
            return random.nextInt(5) == 0 ? "instance-" + random.nextInt(2) : null;
        }

        /** ConsumerProtocolSubscription v0 of the one topic. */
        private static byte[] subscription() {
            byte[] topic = TOPIC.getBytes(StandardCharsets.UTF_8);
            return ByteBufUtil.getBytes(Unpooled.buffer().writeShort(0).writeInt(1).writeShort(topic.length)
                    .writeBytes(topic).writeInt(-1));
        }

        private void check(ApiKey api, Struct response) {
            if (hasUnknownServerError(response)) {
                unexpected.add(api + ": " + response);
            }
        }

        /** Whether any error code in the response, at any depth, is UNKNOWN_SERVER_ERROR. */
        private static boolean hasUnknownServerError(Struct struct) {
            for (Field field : struct.schema().fields()) {
                Object value = struct.get(field.name());
                if (field.name().equals("ErrorCode") && value instanceof Short code
                        && code == Errors.UNKNOWN_SERVER_ERROR.code()) {
                    return true;
                }
                if (value instanceof Struct nested && hasUnknownServerError(nested)) {
                    return true;
                }
                if (value instanceof List<?> list) {
                    for (Object element : list) {
                        if (element instanceof Struct nested && hasUnknownServerError(nested)) {
                            return true;
                        }
                    }
                }
            }
            return false;
        }
    }
}
