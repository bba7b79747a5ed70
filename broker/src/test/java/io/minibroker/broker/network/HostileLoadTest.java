package io.minibroker.broker.network;

import io.minibroker.broker.server.Broker;
import io.minibroker.broker.server.TestBrokers;
import io.minibroker.protocol.error.Errors;
import io.minibroker.protocol.message.ApiKey;
import io.minibroker.protocol.schema.Struct;
import io.netty.buffer.Unpooled;
import org.apache.kafka.clients.CommonClientConfigs;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.compress.Compression;
import org.apache.kafka.common.config.SaslConfigs;
import org.apache.kafka.common.record.internal.MemoryRecords;
import org.apache.kafka.common.record.internal.SimpleRecord;
import org.apache.kafka.common.serialization.StringSerializer;
import org.apache.kafka.common.utils.Utils;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.io.InputStream;
import java.net.Socket;
import java.net.SocketException;
import java.net.SocketTimeoutException;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The attack of issue 20, scaled down by the budget: many connections to a SASL listener, each sending most of
 * a pre-authentication frame of the largest size allowed (512 KiB) and then nothing. Unauthenticated connections
 * may hold {@code unauthenticated.max.request.bytes} of partial frames together; the attackers past that are
 * closed, and a client with credentials is served during the attack and right after it. And the decompression
 * bomb: see {@link #batchesThatInflateHugelyAreRefusedAndTheBrokerServesOn}.
 */
class HostileLoadTest {

    private static final int BUDGET = 2 * 1024 * 1024;
    private static final int FRAME = 512 * 1024 - 40;
    private static final int ATTACKERS = 24;
    private static final String JAAS = "org.apache.kafka.common.security.plain.PlainLoginModule required"
            + " username=\"admin\" password=\"admin-secret\" user_alice=\"alice-secret\";";

    @TempDir
    Path logDir;
    private Broker broker;
    private final List<Socket> attackers = new ArrayList<>();

    @AfterEach
    void stop() throws Exception {
        for (Socket attacker : attackers) {
            attacker.close();
        }
        if (broker != null) {
            broker.close();
        }
    }

    @Test
    @Timeout(120)
    void partialPreAuthenticationFramesCannotExhaustMemoryNorKeepClientsOut() throws Exception {
        broker = TestBrokers.start(logDir, Map.of(
                "listeners", "SASL_PLAINTEXT://localhost:0,PLAINTEXT://localhost:0",
                "sasl.enabled.mechanisms", "PLAIN",
                "listener.name.sasl_plaintext.plain.sasl.jaas.config", JAAS,
                "unauthenticated.max.request.bytes", Integer.toString(BUDGET)));
        int port = broker.boundPort("SASL_PLAINTEXT");
        byte[] mostOfAFrame = ByteBuffer.allocate(FRAME - 1000).putInt(FRAME).array();
        for (int i = 0; i < ATTACKERS; i++) {
            Socket attacker = new Socket("localhost", port);
            attackers.add(attacker);
            try {
                attacker.getOutputStream().write(mostOfAFrame);
                attacker.getOutputStream().flush();
            } catch (SocketException closedWhileWriting) {
                // The broker closed it once the budget was spent, before all of its frame was sent: refused, as
                // the count of held attackers below expects for every one beyond the budget.
            }
        }

        produce("during the attack");

        int held = 0;
        for (Socket attacker : attackers) {
            if (!closedByBroker(attacker)) {
                held++;
            }
        }
        assertThat(held).as("attackers whose partial frames fit the budget")
                .isLessThanOrEqualTo(BUDGET / (FRAME + 4));

        for (Socket attacker : attackers) {
            attacker.close();
        }
        produce("right after the attack");
    }

    /**
     * The second attack: produces of a zstd batch of a few KB that inflates past the limit of one batch, on several
     * connections at once and repeated. Each is refused with INVALID_RECORD, and a producer is served afterwards.
     */
    @Test
    @Timeout(120)
    void batchesThatInflateHugelyAreRefusedAndTheBrokerServesOn() throws Exception {
        broker = TestBrokers.start(logDir, Map.of("listeners", "PLAINTEXT://localhost:0"));
        byte[] zeros = new byte[10 * 1024 * 1024];
        SimpleRecord[] records = new SimpleRecord[8]; // 80 MiB once inflated, over the 64 MiB of one batch
        java.util.Arrays.fill(records, new SimpleRecord(zeros));
        byte[] bomb = Utils.toArray(MemoryRecords.withRecords(Compression.zstd().build(), records).buffer());
        assertThat(bomb.length).as("the compressed batch is small").isLessThan(64 * 1024);
        try (Admin admin = Admin.create(Map.of(CommonClientConfigs.BOOTSTRAP_SERVERS_CONFIG, bootstrap("PLAINTEXT")))) {
            admin.createTopics(List.of(new NewTopic("bombed", 1, (short) 1))).all().get();
        }
        List<RawClient> senders = new ArrayList<>();
        try {
            for (int i = 0; i < 8; i++) {
                senders.add(new RawClient(broker.boundPort("PLAINTEXT")));
            }
            for (int round = 0; round < 3; round++) {
                for (RawClient sender : senders) { // all sent before any answer is read: validated concurrently
                    sender.send(RawClient.request(ApiKey.PRODUCE, (short) 9, round, produceBody(bomb)));
                }
                for (RawClient sender : senders) {
                    Struct answer = sender.receive(ApiKey.PRODUCE, (short) 9).body().getStructs("Responses").get(0)
                            .getStructs("PartitionResponses").get(0);
                    assertThat(answer.getInt16("ErrorCode")).isEqualTo(Errors.INVALID_RECORD.code());
                }
            }
        } finally {
            for (RawClient sender : senders) {
                sender.close();
            }
        }
        Map<String, Object> config = new HashMap<>();
        config.put(CommonClientConfigs.BOOTSTRAP_SERVERS_CONFIG, bootstrap("PLAINTEXT"));
        config.put(ProducerConfig.COMPRESSION_TYPE_CONFIG, "zstd");
        try (KafkaProducer<String, String> producer = new KafkaProducer<>(config, new StringSerializer(),
                new StringSerializer())) {
            assertThat(producer.send(new ProducerRecord<>("bombed", "legitimate")).get().offset()).isZero();
        }
    }

    private static Struct produceBody(byte[] records) {
        Struct body = ApiKey.PRODUCE.request().newMessage().set("Acks", (short) -1).set("TimeoutMs", 5000);
        body.addElement("TopicData").set("Name", "bombed")
                .addElement("PartitionData").set("Index", 0).set("Records", Unpooled.wrappedBuffer(records));
        return body;
    }

    private String bootstrap(String listener) {
        return "localhost:" + broker.boundPort(listener);
    }

    private void produce(String value) throws Exception {
        Map<String, Object> config = new HashMap<>();
        config.put(CommonClientConfigs.BOOTSTRAP_SERVERS_CONFIG, "localhost:" + broker.boundPort("SASL_PLAINTEXT"));
        config.put(CommonClientConfigs.SECURITY_PROTOCOL_CONFIG, "SASL_PLAINTEXT");
        config.put(SaslConfigs.SASL_MECHANISM, "PLAIN");
        config.put(SaslConfigs.SASL_JAAS_CONFIG, "org.apache.kafka.common.security.plain.PlainLoginModule required"
                + " username=\"alice\" password=\"alice-secret\";");
        config.put(ProducerConfig.MAX_BLOCK_MS_CONFIG, "30000");
        try (KafkaProducer<String, String> producer = new KafkaProducer<>(config, new StringSerializer(),
                new StringSerializer())) {
            assertThat(producer.send(new ProducerRecord<>("served", value)).get().offset()).isNotNegative();
        }
    }

    /**
     * Whether the broker closed the connection. A connection it holds answers nothing, so the read ends at the
     * socket's timeout; one it refused was closed when its bytes were read, before the producer above was served.
     */
    private static boolean closedByBroker(Socket attacker) throws IOException {
        attacker.setSoTimeout(3_000);
        InputStream in = attacker.getInputStream();
        try {
            return in.read() == -1;
        } catch (SocketTimeoutException e) {
            return false;
        } catch (SocketException e) {
            return true;
        }
    }
}
