package io.minibroker.broker.fetch;

import io.minibroker.broker.network.RawClient;
import io.minibroker.broker.server.Broker;
import io.minibroker.broker.server.TestBrokers;
import io.minibroker.protocol.error.Errors;
import io.minibroker.protocol.message.ApiKey;
import io.minibroker.protocol.schema.Struct;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Which fetches are full and which name a session, as Kafka's FetchManager decides: by the session epoch (0 or -1:
 * full), not by the session id. segmentio/kafka-go's Client.Fetch sends SessionId -1 with SessionEpoch -1, which
 * Kafka serves sessionless; epoch 0 opens a session whatever id it names.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class FetchSessionsTest {

    private static final short FETCH_V11 = 11;

    private Broker broker;
    private int port;

    @TempDir
    Path logDir;

    @BeforeEach
    void start() throws Exception {
        broker = TestBrokers.start(logDir, Map.of());
        port = broker.boundPort("PLAINTEXT");
        try (RawClient client = new RawClient(port)) {
            Struct create = ApiKey.CREATE_TOPICS.request().newMessage().set("timeoutMs", 5000);
            create.addElement("Topics").set("Name", "sessions").set("NumPartitions", 1)
                    .set("ReplicationFactor", (short) 1);
            client.send(RawClient.request(ApiKey.CREATE_TOPICS, (short) 7, 1, create));
            assertThat(client.receive(ApiKey.CREATE_TOPICS, (short) 7).body().getStructs("Topics").get(0)
                    .getInt16("ErrorCode")).isEqualTo(Errors.NONE.code());
        }
    }

    @AfterEach
    void stop() {
        broker.close();
    }

    private static byte[] fetch(int sessionId, int sessionEpoch) {
        Struct fetch = ApiKey.FETCH.request().newMessage().set("ReplicaId", -1).set("MaxWaitMs", 0)
                .set("MinBytes", 0).set("MaxBytes", 1 << 20).set("SessionId", sessionId).set("SessionEpoch", sessionEpoch);
        fetch.addElement("Topics").set("Topic", "sessions").addElement("Partitions").set("Partition", 0)
                .set("FetchOffset", 0L).set("PartitionMaxBytes", 1 << 20);
        return RawClient.request(ApiKey.FETCH, FETCH_V11, 2, fetch);
    }

    private Struct send(byte[] request) throws Exception {
        try (RawClient client = new RawClient(port)) {
            client.send(request);
            return client.receive(ApiKey.FETCH, FETCH_V11).body();
        }
    }

    private static void assertServedSessionless(Struct response) {
        assertServed(response);
        assertThat(response.getInt32("SessionId")).isZero();
    }

    private static void assertServed(Struct response) {
        assertThat(response.getInt16("ErrorCode")).isEqualTo(Errors.NONE.code());
        assertThat(response.getStructs("Responses")).hasSize(1);
        assertThat(response.getStructs("Responses").get(0).getStructs("Partitions").get(0).getInt16("ErrorCode"))
                .isEqualTo(Errors.NONE.code());
    }

    @Test
    void aSessionlessFetchNamingSessionIdMinusOneIsServed() throws Exception {
        assertServedSessionless(send(fetch(-1, -1)));
    }

    @Test
    void aFullFetchNamingASessionThatDoesNotExistIsServed() throws Exception {
        Struct opening = send(fetch(42, 0));
        assertServed(opening);
        assertThat(opening.getInt32("SessionId")).as("epoch 0: a session opened").isPositive().isNotEqualTo(42);
        assertServedSessionless(send(fetch(42, -1)));
    }

    @Test
    void anIncrementalFetchNamingASessionNeverGivenIsRefused() throws Exception {
        for (int sessionId : new int[] {42, 0}) {
            Struct response = send(fetch(sessionId, 1));

            assertThat(response.getInt16("ErrorCode")).isEqualTo(Errors.FETCH_SESSION_ID_NOT_FOUND.code());
            assertThat(response.getStructs("Responses")).isEmpty();
        }
    }
}
