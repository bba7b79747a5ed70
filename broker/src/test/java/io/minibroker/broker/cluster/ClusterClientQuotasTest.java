package io.minibroker.broker.cluster;

import io.minibroker.broker.embedded.MiniCluster;
import io.minibroker.protocol.error.Errors;
import io.minibroker.protocol.message.ApiKey;
import io.minibroker.protocol.schema.Struct;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.common.errors.InvalidRequestException;
import org.apache.kafka.common.quota.ClientQuotaAlteration;
import org.apache.kafka.common.quota.ClientQuotaEntity;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.List;
import java.util.Map;

import static io.minibroker.broker.server.Eventually.await;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Client quotas in a cluster of three, as Kafka's are ClientQuotaRecords of the metadata log: a broker forwards
 * AlterClientQuotas to the controller, which checks and keeps them; every node then describes them from its copy of
 * the image, also after the controller and a broker restart.
 */
@Timeout(180)
class ClusterClientQuotasTest {

    private static final int ALTERED_ON = 1;

    private MiniCluster cluster;

    @BeforeEach
    void start() throws Exception {
        cluster = MiniCluster.start(3, Map.of());
    }

    @AfterEach
    void close() {
        cluster.close();
    }

    @Test
    void aQuotaSetThroughOneBrokerReachesEveryNodeAndOutlivesRestarts() throws Exception {
        ClientQuotaEntity alice = new ClientQuotaEntity(Map.of("user", "alice"));
        try (Admin admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG,
                "localhost:" + cluster.node(ALTERED_ON).boundPort("PLAINTEXT")))) {
            admin.alterClientQuotas(List.of(new ClientQuotaAlteration(alice,
                    List.of(new ClientQuotaAlteration.Op("producer_byte_rate", 1024.0))))).all().get();
            assertThatThrownBy(() -> admin.alterClientQuotas(List.of(new ClientQuotaAlteration(alice,
                    List.of(new ClientQuotaAlteration.Op("producer_byte_rate", 0.5))))).all().get())
                    .as("checked at the controller").hasCauseInstanceOf(InvalidRequestException.class)
                    .cause().hasMessage("producer_byte_rate cannot be a fractional value.");
        }
        everyNodeDescribes("user=alice producer_byte_rate=1024.0");

        cluster.stop(MiniCluster.CONTROLLER_ID);
        cluster.stop(2);
        cluster.restart(MiniCluster.CONTROLLER_ID);
        cluster.restart(2);
        everyNodeDescribes("user=alice producer_byte_rate=1024.0");
    }

    private void everyNodeDescribes(String expected) {
        for (int node = 0; node < 3; node++) {
            int id = node;
            await(() -> described(id).equals(expected), "node " + id + " to describe " + expected);
        }
    }

    /** What this very node (an Admin would pick any) answers to a describe of every quota. */
    private String described(int node) {
        Struct request = ApiKey.DESCRIBE_CLIENT_QUOTAS.request().newMessage().set("Strict", false);
        Struct response;
        try (NodeChannel channel = new NodeChannel("localhost", cluster.node(node).boundPort("PLAINTEXT"),
                "client-quotas-test", 5_000)) {
            response = channel.send(ApiKey.DESCRIBE_CLIENT_QUOTAS, (short) 1, request);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        assertThat(response.getInt16("ErrorCode")).isEqualTo(Errors.NONE.code());
        StringBuilder described = new StringBuilder();
        for (Struct entry : response.getStructs("Entries")) {
            for (Struct entity : entry.getStructs("Entity")) {
                described.append(entity.getString("EntityType")).append('=').append(entity.getString("EntityName"));
            }
            for (Struct value : entry.getStructs("Values")) {
                described.append(' ').append(value.getString("Key")).append('=').append(value.get("Value"));
            }
        }
        return described.toString();
    }
}
