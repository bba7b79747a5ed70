package io.minibroker.broker.network;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import io.minibroker.protocol.message.ApiKey;
import io.minibroker.protocol.message.Response;
import io.minibroker.protocol.message.view.ApiVersionsResponseView;
import io.minibroker.protocol.schema.ArrayType;
import io.minibroker.protocol.schema.Field;
import io.minibroker.protocol.schema.FieldType;
import io.minibroker.protocol.schema.Primitive;
import io.minibroker.protocol.schema.Struct;
import io.minibroker.protocol.schema.StructSchema;
import io.netty.buffer.Unpooled;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.UUID;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Sends a listener well-formed requests with random field values, for every API and version it advertises, one
 * at a time, and collects each that got no answer (a closed connection or a timeout) with what the broker logged
 * last; it also records every ERROR the request handlers log meanwhile. The values favour what handlers get
 * wrong: names of topics and groups that exist, empty and oversized strings, negative and extreme numbers,
 * counts that would be huge to act on. {@code -Dminibroker.fuzz.seed=N -Dminibroker.fuzz.tries=N} search further.
 */
public final class RequestFuzzer implements AutoCloseable {

    public static final long SEED = Long.getLong("minibroker.fuzz.seed", 20261124L);
    private static final int TRIES_PER_VERSION = Integer.getInteger("minibroker.fuzz.tries", 10);
    private static final String TOPIC = "fuzz";
    private static final String[] STRINGS = {TOPIC, TOPIC, "g", "", "__consumer_offsets", "ünïcødé", "x".repeat(300),
            "a/b", "fuzz-new"};

    private final Random random = new Random(SEED);
    private final Logger requestHandlerLogger = (Logger) LoggerFactory.getLogger(RequestHandler.class);
    private final ListAppender<ILoggingEvent> handlerLog = new ListAppender<>();
    private final List<String> unanswered = new ArrayList<>();
    private int sent;

    public RequestFuzzer() {
        handlerLog.start();
        requestHandlerLogger.addAppender(handlerLog);
    }

    /** Fuzzes the listener at {@code port} of localhost. */
    public void fuzz(int port) throws IOException {
        RawClient client = new RawClient(port);
        try {
            ApiVersionsResponseView versions = client.askApiVersions((short) 3, 0);
            assertThat(versions.errorCode()).isZero();
            for (ApiVersionsResponseView.ApiVersion offered : versions.apiKeys()) {
                ApiKey api = ApiKey.forId(offered.apiKey());
                // Produce's advertised minimum is 0, as Kafka 4 advertises it for old clients' sake; v0-v2 are gone.
                short lowest = (short) Math.max(offered.minVersion(), api.lowestVersion());
                for (short version = lowest; version <= offered.maxVersion(); version++) {
                    for (int i = 0; i < TRIES_PER_VERSION; i++) {
                        Struct body = new Filler(random).fill(api.request().body(), version);
                        makeAnswerable(api, body);
                        int correlationId = ++sent;
                        client.send(RawClient.request(api, version, correlationId, body));
                        Response response;
                        try {
                            response = client.receive(api, version);
                        } catch (IOException closedOrTimedOut) {
                            List<ILoggingEvent> logged = List.copyOf(handlerLog.list);
                            unanswered.add(api + " v" + version + " on port " + port + ": " + closedOrTimedOut
                                    + "; last logged: "
                                    + (logged.isEmpty() ? "nothing" : describe(logged.get(logged.size() - 1)))
                                    + "\n    request: " + abbreviated(body));
                            client.close();
                            client = new RawClient(port);
                            continue;
                        }
                        assertThat(response.correlationId()).as("%s v%d", api, version).isEqualTo(correlationId);
                    }
                }
            }
        } finally {
            client.close();
        }
    }

    /** How many requests were sent. */
    public int sent() {
        return sent;
    }

    /** The requests that got no answer, each with the broker's last log line then. */
    public List<String> unanswered() {
        return unanswered;
    }

    /** The ERRORs the request handlers logged, described. */
    public List<String> errorsLogged() {
        return List.copyOf(handlerLog.list).stream().filter(event -> event.getLevel() == Level.ERROR)
                .map(RequestFuzzer::describe).toList();
    }

    /** Whether the listener at {@code port} answers a plain ApiVersions. */
    public static boolean answers(int port) throws IOException {
        try (RawClient client = new RawClient(port)) {
            return client.askApiVersions((short) 0, 1).errorCode() == 0;
        }
    }

    @Override
    public void close() {
        requestHandlerLogger.detachAppender(handlerLog);
    }

    private static String abbreviated(Struct body) {
        String text = body.toString().replaceAll("x{300}", "x...x");
        return text.length() > 600 ? text.substring(0, 600) + "..." : text;
    }

    private static String describe(ILoggingEvent event) {
        return event.getLevel() + " " + event.getFormattedMessage() + (event.getThrowableProxy() == null ? ""
                : ": " + event.getThrowableProxy().getClassName() + ": " + event.getThrowableProxy().getMessage());
    }

    /**
     * Keeps the request one the broker must answer promptly: a produce with acks=0 gets no answer by design, and
     * long polls and rebalances wait as long as they are told to.
     */
    private static void makeAnswerable(ApiKey api, Struct body) {
        if (api == ApiKey.PRODUCE && body.getInt16("Acks") == 0) {
            body.set("Acks", (short) 1);
        }
    }

    /** Random values for the fields of one version, drawn towards the edges handlers must cope with. */
    private static final class Filler {
        private final Random random;

        Filler(Random random) {
            this.random = random;
        }

        Struct fill(StructSchema schema, short version) {
            return fill(schema, version, 0);
        }

        private Struct fill(StructSchema schema, short version, int depth) {
            Struct struct = schema.newStruct();
            for (Field field : schema.fields()) {
                if (!field.existsIn(version) || (field.isTaggedIn(version) && random.nextInt(3) == 0)) {
                    continue;
                }
                if (field.isNullableIn(version) && random.nextInt(6) == 0) {
                    struct.set(field.name(), null);
                    continue;
                }
                struct.set(field.name(), value(field, field.type(), version, depth));
            }
            return struct;
        }

        private Object value(Field field, FieldType type, short version, int depth) {
            if (type instanceof StructSchema struct) {
                return fill(struct, version, depth + 1);
            }
            if (type instanceof ArrayType array) {
                int count = random.nextInt(depth > 2 ? 2 : 4);
                List<Object> list = new ArrayList<>(count);
                for (int i = 0; i < count; i++) {
                    list.add(value(field, array.elementType(), version, depth + 1));
                }
                return list;
            }
            return scalar(field.name(), (Primitive) type);
        }

        private Object scalar(String name, Primitive type) {
            boolean extreme = random.nextInt(6) == 0;
            boolean waits = name.endsWith("TimeoutMs") || name.equals("MaxWaitMs");
            return switch (type) {
                case INT8 -> extreme ? (random.nextBoolean() ? Byte.MIN_VALUE : Byte.MAX_VALUE)
                        : (byte) (random.nextInt(5) - 1);
                case INT16 -> extreme ? (random.nextBoolean() ? Short.MIN_VALUE : Short.MAX_VALUE)
                        : (short) (random.nextInt(5) - 1);
                case INT32 -> waits ? random.nextInt(300) - 1 : extreme
                        ? (random.nextBoolean() ? Integer.MIN_VALUE : Integer.MAX_VALUE) : random.nextInt(6) - 1;
                case INT64 -> extreme ? (random.nextBoolean() ? Long.MIN_VALUE : Long.MAX_VALUE)
                        : random.nextInt(100) - 2;
                case UINT16 -> extreme ? 0xffff : random.nextInt(4);
                case UINT32 -> extreme ? 0xffff_ffffL : (long) random.nextInt(4);
                case FLOAT64 -> extreme ? Double.NaN : random.nextDouble();
                case BOOL -> random.nextBoolean();
                case UUID_TYPE -> random.nextBoolean() ? new UUID(0, 0) : new UUID(random.nextLong(), random.nextLong());
                case STRING -> STRINGS[random.nextInt(STRINGS.length)];
                case BYTES -> {
                    byte[] bytes = new byte[random.nextInt(24)];
                    random.nextBytes(bytes);
                    yield bytes;
                }
                case RECORDS -> {
                    byte[] bytes = new byte[random.nextInt(80)];
                    random.nextBytes(bytes);
                    yield Unpooled.wrappedBuffer(bytes);
                }
            };
        }
    }
}
