package io.minibroker.broker.admin;

import io.minibroker.broker.server.Broker;
import io.minibroker.broker.server.TestBrokers;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.common.errors.InvalidRequestException;
import org.apache.kafka.common.errors.UnsupportedVersionException;
import org.apache.kafka.common.quota.ClientQuotaFilter;
import org.apache.kafka.common.quota.ClientQuotaFilterComponent;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** DescribeClientQuotas on a broker with no client quota set: nothing matches, and Kafka's malformed filters are refused. */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class DescribeClientQuotasTest {

    @TempDir
    Path logDir;

    @Test
    void everyFilterMatchesNothingAndMalformedOnesAreRefused() throws Exception {
        try (Broker broker = TestBrokers.start(logDir, Map.of());
             Admin admin = TestBrokers.admin(broker)) {
            assertThat(admin.describeClientQuotas(ClientQuotaFilter.all()).entities().get()).isEmpty();
            assertThat(admin.describeClientQuotas(ClientQuotaFilter.containsOnly(List.of(
                    ClientQuotaFilterComponent.ofEntity("user", "alice"),
                    ClientQuotaFilterComponent.ofDefaultEntity("client-id")))).entities().get()).isEmpty();

            // What Kafka 4.3.1's broker answered for the same filters.
            assertRefused(admin, List.of(ClientQuotaFilterComponent.ofEntityType("tenant")),
                    UnsupportedVersionException.class, "Unsupported entity type tenant");
            assertRefused(admin, List.of(ClientQuotaFilterComponent.ofEntityType("")),
                    InvalidRequestException.class, "Invalid empty entity type.");
            assertRefused(admin, List.of(ClientQuotaFilterComponent.ofEntityType("user"),
                    ClientQuotaFilterComponent.ofEntityType("user")),
                    InvalidRequestException.class, "Entity type user cannot appear more than once in the filter.");
            assertRefused(admin, List.of(ClientQuotaFilterComponent.ofEntityType("ip"),
                    ClientQuotaFilterComponent.ofEntityType("user")), InvalidRequestException.class,
                    "Invalid entity filter component combination. IP filter component should not be used with user"
                            + " or clientId filter component.");
        }
    }

    private static void assertRefused(Admin admin, List<ClientQuotaFilterComponent> filter,
                                      Class<? extends Exception> error, String message) {
        assertThatThrownBy(() -> admin.describeClientQuotas(ClientQuotaFilter.contains(filter)).entities().get())
                .isInstanceOf(ExecutionException.class).hasCauseInstanceOf(error).cause().hasMessage(message);
    }
}
