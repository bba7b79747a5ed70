package io.minibroker.broker.admin;

import io.minibroker.broker.server.Broker;
import io.minibroker.broker.server.TestBrokers;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AlterClientQuotasOptions;
import org.apache.kafka.common.KafkaFuture;
import org.apache.kafka.common.quota.ClientQuotaAlteration;
import org.apache.kafka.common.quota.ClientQuotaEntity;
import org.apache.kafka.common.quota.ClientQuotaFilter;
import org.apache.kafka.common.quota.ClientQuotaFilterComponent;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * AlterClientQuotas and DescribeClientQuotas on one node, each expected answer the one a Kafka 4.3.1 node gave to the
 * same request (kafka-clients' Admin against both): the controller's checks of an alteration in its words, the
 * filters' matches (exact, default, "specified", strict), validateOnly, removals, and the quotas kept across a
 * restart.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class ClientQuotasTest {

    @TempDir
    Path logDir;

    @Test
    void alterationsKafkaRefusesAreRefusedWithItsMessagesAndChangeNothing() throws Exception {
        try (Broker broker = TestBrokers.start(logDir, Map.of());
             Admin admin = TestBrokers.admin(broker)) {
            assertThat(alter(admin, false, alt(entity(), "producer_byte_rate", 1.0)))
                    .isEqualTo("InvalidRequestException: Invalid empty client quota entity");
            assertThat(alter(admin, false, alt(entity("tenant", "x"), "producer_byte_rate", 1.0)))
                    .isEqualTo("InvalidRequestException: Unhandled client quota entity type: tenant");
            assertThat(alter(admin, false, alt(entity("user", ""), "producer_byte_rate", 1.0)))
                    .isEqualTo("InvalidRequestException: Empty user not supported");
            assertThat(alter(admin, false, alt(entity("user", "alice"), "foo", 1.0)))
                    .isEqualTo("InvalidRequestException: Invalid configuration key foo");
            assertThat(alter(admin, false, alt(entity("user", "bob"), "producer_byte_rate", 100.0, "foo", 1.0)))
                    .as("one bad key refuses the entity's good ones too")
                    .isEqualTo("InvalidRequestException: Invalid configuration key foo");
            assertThat(alter(admin, false, alt(entity("user", "alice"), "producer_byte_rate", 1.5)))
                    .isEqualTo("InvalidRequestException: producer_byte_rate cannot be a fractional value.");
            assertThat(alter(admin, false, alt(entity("user", "alice"), "producer_byte_rate", -5.0)))
                    .isEqualTo("InvalidRequestException: Quota producer_byte_rate must be greater than 0");
            assertThat(alter(admin, false, alt(entity("user", "alice"), "SCRAM-SHA-256", 1.0)))
                    .isEqualTo("InvalidRequestException: Invalid configuration key SCRAM-SHA-256");
            assertThat(alter(admin, false, alt(entity("client-id", "c"), "connection_creation_rate", 1.0)))
                    .isEqualTo("InvalidRequestException: Invalid configuration key connection_creation_rate");
            assertThat(alter(admin, false, alt(entity("ip", "127.0.0.1"), "producer_byte_rate", 1.0)))
                    .isEqualTo("InvalidRequestException: Invalid configuration key producer_byte_rate");
            assertThat(alter(admin, false, alt(entity("ip", "not a host!"), "connection_creation_rate", 1.0)))
                    .isEqualTo("InvalidRequestException: not a host! is not a valid IP or resolvable host.");
            assertThat(alter(admin, false, alt(entity("ip", "127.0.0.1"), "connection_creation_rate", 1.5)))
                    .isEqualTo("InvalidRequestException: connection_creation_rate cannot be a fractional value.");
            assertThat(alter(admin, false, alt(entity("ip", "127.0.0.1", "user", "a"), "connection_creation_rate",
                    1.0))).isEqualTo("InvalidRequestException: Invalid quota entity combination, IP entity"
                    + " shouldnot be combined with User or ClientId");
            assertThat(alter(admin, false, alt(entity("user", "carol"), "producer_byte_rate", 1.0,
                    "producer_byte_rate", 2.0))).isEqualTo("InvalidRequestException: Ignoring duplicate entity"
                    + " ClientQuotaEntity(entries={user=carol})");

            assertThat(alter(admin, true, alt(entity("user", "dave"), "producer_byte_rate", 1.0))).isEqualTo("OK");
            assertThat(alter(admin, false, alt(entity("user", "frank"), "producer_byte_rate", null)))
                    .as("removing what is not there").isEqualTo("OK");
            assertThat(describe(admin, ClientQuotaFilter.all())).as("validateOnly and refusals changed nothing")
                    .isEqualTo("{}");
        }
    }

    @Test
    void filtersMatchAsKafkasAndTheQuotasOutliveARestart() throws Exception {
        try (Broker broker = TestBrokers.start(logDir, Map.of());
             Admin admin = TestBrokers.admin(broker)) {
            assertThat(alter(admin, false,
                    alt(entity("user", "alice"), "producer_byte_rate", 1024.0, "consumer_byte_rate", 2048.0),
                    alt(entity("user", "alice", "client-id", "app"), "request_percentage", 50.0),
                    alt(entity("user", null), "producer_byte_rate", 4096.0),
                    alt(entity("user", null, "client-id", null), "consumer_byte_rate", 10.0),
                    alt(entity("user", "alice", "client-id", null), "producer_byte_rate", 7.0),
                    alt(entity("client-id", "app"), "producer_byte_rate", 8.0),
                    alt(entity("client-id", null), "producer_byte_rate", 9.0),
                    alt(entity("ip", "127.0.0.1"), "connection_creation_rate", 5.0),
                    alt(entity("ip", null), "connection_creation_rate", 6.0),
                    alt(entity("user", "erin"), "controller_mutation_rate", 2.5),
                    alt(entity("client-id", "big"), "request_percentage", 1e9))).isEqualTo("OK");

            assertThat(describe(admin, ClientQuotaFilter.containsOnly(List.of()))).isEqualTo("{}");
            assertThat(describe(admin, filter(false, ClientQuotaFilterComponent.ofEntity("user", "alice"))))
                    .isEqualTo("{{client-id=app, user=alice}={request_percentage=50.0}, {client-id=null, user=alice}"
                            + "={producer_byte_rate=7.0}, {user=alice}={consumer_byte_rate=2048.0,"
                            + " producer_byte_rate=1024.0}}");
            assertThat(describe(admin, filter(true, ClientQuotaFilterComponent.ofEntity("user", "alice"))))
                    .isEqualTo("{{user=alice}={consumer_byte_rate=2048.0, producer_byte_rate=1024.0}}");
            assertThat(describe(admin, filter(false, ClientQuotaFilterComponent.ofDefaultEntity("user"))))
                    .isEqualTo("{{client-id=null, user=null}={consumer_byte_rate=10.0},"
                            + " {user=null}={producer_byte_rate=4096.0}}");
            assertThat(describe(admin, filter(false, ClientQuotaFilterComponent.ofEntityType("user"))))
                    .as("specified: any name, the default's too").isEqualTo("{{client-id=app, user=alice}"
                            + "={request_percentage=50.0}, {client-id=null, user=alice}={producer_byte_rate=7.0},"
                            + " {client-id=null, user=null}={consumer_byte_rate=10.0}, {user=alice}"
                            + "={consumer_byte_rate=2048.0, producer_byte_rate=1024.0}, {user=erin}"
                            + "={controller_mutation_rate=2.5}, {user=null}={producer_byte_rate=4096.0}}");
            assertThat(describe(admin, filter(true, ClientQuotaFilterComponent.ofEntityType("user"))))
                    .isEqualTo("{{user=alice}={consumer_byte_rate=2048.0, producer_byte_rate=1024.0},"
                            + " {user=erin}={controller_mutation_rate=2.5}, {user=null}={producer_byte_rate=4096.0}}");
            assertThat(describe(admin, filter(false, ClientQuotaFilterComponent.ofEntityType("user"),
                    ClientQuotaFilterComponent.ofEntityType("client-id")))).isEqualTo("{{client-id=app, user=alice}"
                    + "={request_percentage=50.0}, {client-id=null, user=alice}={producer_byte_rate=7.0},"
                    + " {client-id=null, user=null}={consumer_byte_rate=10.0}}");
            assertThat(describe(admin, filter(true, ClientQuotaFilterComponent.ofDefaultEntity("ip"))))
                    .isEqualTo("{{ip=null}={connection_creation_rate=6.0}}");

            assertThat(alter(admin, false, alt(entity("user", "alice"), "producer_byte_rate", null,
                    "consumer_byte_rate", null), alt(entity("ip", null), "connection_creation_rate", null)))
                    .isEqualTo("OK");
        }
        String kept = "{{client-id=app, user=alice}={request_percentage=50.0}, {client-id=app}={producer_byte_rate=8.0},"
                + " {client-id=big}={request_percentage=1.0E9}, {client-id=null, user=alice}={producer_byte_rate=7.0},"
                + " {client-id=null, user=null}={consumer_byte_rate=10.0}, {client-id=null}={producer_byte_rate=9.0},"
                + " {ip=127.0.0.1}={connection_creation_rate=5.0}, {user=erin}={controller_mutation_rate=2.5},"
                + " {user=null}={producer_byte_rate=4096.0}}";
        try (Broker broker = TestBrokers.start(logDir, Map.of());
             Admin admin = TestBrokers.admin(broker)) {
            assertThat(describe(admin, ClientQuotaFilter.all())).as("kept, removals too, across the restart")
                    .isEqualTo(kept);
        }
    }

    static ClientQuotaEntity entity(String... typesAndNames) {
        Map<String, String> entries = new HashMap<>();
        for (int i = 0; i < typesAndNames.length; i += 2) {
            entries.put(typesAndNames[i], typesAndNames[i + 1]);
        }
        return new ClientQuotaEntity(entries);
    }

    static ClientQuotaAlteration alt(ClientQuotaEntity entity, Object... keysAndValues) {
        List<ClientQuotaAlteration.Op> ops = new ArrayList<>();
        for (int i = 0; i < keysAndValues.length; i += 2) {
            ops.add(new ClientQuotaAlteration.Op((String) keysAndValues[i], (Double) keysAndValues[i + 1]));
        }
        return new ClientQuotaAlteration(entity, ops);
    }

    /** "OK" if every entity was altered, else the first refusal's exception and message. */
    static String alter(Admin admin, boolean validateOnly, ClientQuotaAlteration... alterations)
            throws InterruptedException {
        Map<ClientQuotaEntity, KafkaFuture<Void>> results = admin.alterClientQuotas(List.of(alterations),
                new AlterClientQuotasOptions().validateOnly(validateOnly)).values();
        for (KafkaFuture<Void> result : results.values()) {
            try {
                result.get();
            } catch (ExecutionException e) {
                return e.getCause().getClass().getSimpleName() + ": " + e.getCause().getMessage();
            }
        }
        return "OK";
    }

    static ClientQuotaFilter filter(boolean strict, ClientQuotaFilterComponent... components) {
        return strict ? ClientQuotaFilter.containsOnly(List.of(components))
                : ClientQuotaFilter.contains(List.of(components));
    }

    /** The entities and quotas the filter matches, sorted, as the comparison with Kafka printed them. */
    static String describe(Admin admin, ClientQuotaFilter filter) throws Exception {
        Map<String, String> described = new TreeMap<>();
        admin.describeClientQuotas(filter).entities().get().forEach((entity, quotas) ->
                described.put(new TreeMap<>(entity.entries()).toString(), new TreeMap<>(quotas).toString()));
        return described.toString();
    }
}
