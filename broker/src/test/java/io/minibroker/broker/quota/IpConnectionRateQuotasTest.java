package io.minibroker.broker.quota;

import io.minibroker.broker.network.RawClient;
import io.minibroker.broker.server.Broker;
import io.minibroker.broker.server.TestBrokers;
import io.minibroker.purgatory.time.ManualClock;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.common.quota.ClientQuotaAlteration;
import org.apache.kafka.common.quota.ClientQuotaEntity;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.net.InetAddress;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The ips' {@code connection_creation_rate} (KIP-612): an address's new connections measured as Kafka's
 * ConnectionQuotas measures them (11 windows of 1 s), the address's own quota before the default ip's, and a
 * connection over it refused.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class IpConnectionRateQuotasTest {

    @TempDir
    Path dir;

    @Test
    void anAddressOverItsQuotaIsThrottledForKafkasTimeAndTheDefaultIpCoversTheOthers() throws Exception {
        ClientQuotas quotas = ClientQuotas.open(dir);
        Map<QuotaEntity, Map<String, Double>> set = new HashMap<>();
        set.put(QuotaEntity.of("ip", "10.0.0.1"), Map.of(QuotaConfig.IP_CONNECTION_RATE, 5.0));
        set.put(QuotaEntity.of("ip", null), Map.of(QuotaConfig.IP_CONNECTION_RATE, 100.0));
        quotas.alter(set);
        AtomicLong nowMs = new AtomicLong(5_000);
        IpConnectionRateQuotas limits = new IpConnectionRateQuotas(quotas, nowMs::get, 11, 1);
        InetAddress limited = InetAddress.getByName("10.0.0.1");
        InetAddress other = InetAddress.getByName("10.0.0.2");

        for (int i = 0; i < 50; i++) { // 50 over the 10 s a first rate is measured over: 5 a second
            assertThat(limits.recordAndGetThrottleTimeMs(limited)).isZero();
            assertThat(limits.recordAndGetThrottleTimeMs(other)).isZero();
        }
        // 5.1 a second: (5.1 - 5) / 5 x 10 000 ms
        assertThat(limits.recordAndGetThrottleTimeMs(limited)).isEqualTo(200);
        assertThat(limits.recordAndGetThrottleTimeMs(other)).as("the default ip's 100").isZero();

        nowMs.addAndGet(11_000); // every window of the span has passed
        assertThat(limits.recordAndGetThrottleTimeMs(limited)).isZero();

        quotas.alter(Map.of(QuotaEntity.of("ip", null), removal()));
        for (int i = 0; i < 1000; i++) {
            assertThat(limits.recordAndGetThrottleTimeMs(other)).as("no quota left for it").isZero();
        }
    }

    @Test
    void aBrokerRefusesTheConnectionThatTakesItsAddressOverTheQuota() throws Exception {
        ManualClock clock = new ManualClock();
        try (Broker broker = TestBrokers.start(dir, Map.of(), clock)) {
            try (Admin admin = TestBrokers.admin(broker)) {
                admin.alterClientQuotas(List.of(new ClientQuotaAlteration(
                        new ClientQuotaEntity(Map.of("ip", "127.0.0.1")),
                        List.of(new ClientQuotaAlteration.Op(QuotaConfig.IP_CONNECTION_RATE, 1.0))))).all().get();
            }
            List<RawClient> open = new ArrayList<>();
            try {
                for (int i = 0; i < 10; i++) { // 1 a second over 10 s, the clock standing still
                    RawClient client = new RawClient(broker.boundPort("PLAINTEXT"));
                    open.add(client);
                    assertThat(client.askApiVersions((short) 3, i).errorCode()).isZero();
                }
                RawClient refused = new RawClient(broker.boundPort("PLAINTEXT"));
                open.add(refused);
                assertThat(refused.closedByBroker()).isTrue();

                clock.advance(11_000);
                RawClient later = new RawClient(broker.boundPort("PLAINTEXT"));
                open.add(later);
                assertThat(later.askApiVersions((short) 3, 99).errorCode()).as("the windows passed").isZero();
            } finally {
                for (RawClient client : open) {
                    client.close();
                }
            }
        }
    }

    private static Map<String, Double> removal() {
        Map<String, Double> removal = new HashMap<>();
        removal.put(QuotaConfig.IP_CONNECTION_RATE, null);
        return removal;
    }
}
