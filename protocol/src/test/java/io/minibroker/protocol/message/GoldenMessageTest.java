package io.minibroker.protocol.message;

import static org.assertj.core.api.Assertions.assertThat;

import io.minibroker.protocol.schema.MessageSchema;
import io.minibroker.protocol.schema.Struct;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.Unpooled;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.apache.kafka.common.protocol.ApiKeys;
import org.apache.kafka.common.protocol.ApiMessage;
import org.junit.jupiter.api.DynamicContainer;
import org.junit.jupiter.api.DynamicNode;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

/**
 * Every API, every version, both message kinds, checked against kafka-clients 4.4.0:
 * <ol>
 *   <li>our schema at the version has the shape of Kafka's published schema (names, types,
 *       nullability, tags);</li>
 *   <li>random messages encoded by us parse in Kafka, and Kafka serializes what it parsed to the very
 *       same bytes;</li>
 *   <li>those Kafka-serialized bytes decode with us to the field values Kafka's accessors report, for
 *       every field including those absent from the version (which checks defaults), and re-encode to
 *       identical bytes;</li>
 *   <li>the same for messages generated from Kafka's own schema of the version, independently of ours
 *       ({@link KafkaRandomMessages}).</li>
 * </ol>
 */
class GoldenMessageTest {
    private static final int SAMPLES_PER_VERSION = 8;

    @TestFactory
    Stream<DynamicNode> everyApiEveryVersion() {
        List<DynamicNode> apis = new ArrayList<>();
        for (ApiKey api : ApiKey.values()) {
            List<DynamicNode> versions = new ArrayList<>();
            for (short v : KafkaMirror.versions(api.request())) {
                short version = v;
                versions.add(DynamicTest.dynamicTest("request v" + v, () -> check(api.request(), version)));
                versions.add(DynamicTest.dynamicTest("response v" + v, () -> check(api.response(), version)));
            }
            apis.add(DynamicContainer.dynamicContainer(api.name(), versions));
        }
        return apis.stream();
    }

    @TestFactory
    Stream<DynamicTest> versionRangesMatchKafka() {
        return Stream.of(ApiKey.values()).map(api -> DynamicTest.dynamicTest(api.name(), () -> {
            ApiKeys kafka = ApiKeys.forId(api.id());
            assertThat(kafka.name()).isEqualTo(api.name());
            assertThat(api.lowestVersion()).as("oldest").isEqualTo(kafka.oldestVersion());
            assertThat(api.highestVersion()).as("latest").isEqualTo(kafka.latestVersion());
            assertThat(api.highestStableVersion()).as("latest stable").isEqualTo(kafka.latestVersion(false));
            assertThat(api.response().lowestVersion()).isEqualTo(api.lowestVersion());
            assertThat(api.response().highestVersion()).isEqualTo(api.highestVersion());
        }));
    }

    /**
     * A message built from scratch (as the broker builds responses, through views) holds Kafka's defaults,
     * including those of fields present in every version, which no encoded message can reveal.
     */
    @TestFactory
    Stream<DynamicTest> freshMessagesHoldKafkaDefaults() {
        return Stream.of(ApiKey.values()).flatMap(api -> Stream.of(api.request(), api.response()))
                .map(schema -> DynamicTest.dynamicTest(schema.name(), () -> {
                    Object kafkaFresh = KafkaMirror.dataClass(schema).getConstructor().newInstance();
                    KafkaMirror.assertSameValues(schema.newMessage(), kafkaFresh, schema.name());
                }));
    }

    private static void check(MessageSchema schema, short version) {
        assertThat(KafkaMirror.describe(schema.body(), version, schema.isFlexible(version)))
                .as("shape of " + schema.name() + " v" + version)
                .isEqualTo(KafkaMirror.describe(KafkaMirror.kafkaSchema(schema, version)));
        for (int seed = 0; seed < SAMPLES_PER_VERSION; seed++) {
            Struct original = new RandomStructs(seed * 1000L + version).fill(schema.body(), version, 0);
            byte[] ours = encode(schema, original, version);

            ApiMessage kafkaParsed = KafkaMirror.parse(schema, ours, version);
            byte[] kafkaBytes = KafkaMirror.serialize(kafkaParsed, version);
            assertThat(ByteBufUtil.hexDump(kafkaBytes)).as("Kafka re-serializes our bytes unchanged, seed " + seed)
                    .isEqualTo(ByteBufUtil.hexDump(ours));

            Struct decoded = schema.read(Unpooled.wrappedBuffer(kafkaBytes), version);
            assertThat(decoded).isEqualTo(original);
            KafkaMirror.assertSameValues(decoded, kafkaParsed, schema.name());
            assertThat(encode(schema, decoded, version)).isEqualTo(kafkaBytes);
        }
        for (int seed = 0; seed < SAMPLES_PER_VERSION; seed++) {
            checkKafkaMade(schema, version, seed);
        }
    }

    /**
     * Direction Kafka to us with data we did not generate: random values drawn from Kafka's schema, parsed
     * and re-serialized by Kafka's generated class, decode with us to the values Kafka reports and
     * re-encode to Kafka's bytes.
     */
    private static void checkKafkaMade(MessageSchema schema, short version, int seed) {
        byte[] raw = new KafkaRandomMessages(seed * 7919L + version).serialize(KafkaMirror.kafkaSchema(schema, version));
        ApiMessage kafkaParsed = KafkaMirror.parse(schema, raw, version);
        byte[] kafkaBytes = KafkaMirror.serialize(kafkaParsed, version);

        Struct decoded = schema.read(Unpooled.wrappedBuffer(kafkaBytes), version);
        KafkaMirror.assertSameValues(decoded, kafkaParsed, schema.name());
        assertThat(ByteBufUtil.hexDump(encode(schema, decoded, version))).as("re-encoded Kafka-made bytes, seed " + seed)
                .isEqualTo(ByteBufUtil.hexDump(kafkaBytes));
    }

    private static byte[] encode(MessageSchema schema, Struct message, short version) {
        int size = schema.sizeOf(message, version);
        ByteBuf out = Unpooled.buffer(size);
        schema.write(out, message, version);
        assertThat(out.readableBytes()).as("computed size").isEqualTo(size);
        return ByteBufUtil.getBytes(out);
    }
}
