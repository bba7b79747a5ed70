package io.minibroker.broker.network;

import org.junit.jupiter.api.Test;

import java.net.InetAddress;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

class ConnectionQuotasTest {

    private static final int NONE = Integer.MAX_VALUE;
    private final AtomicLong nowMs = new AtomicLong(1_000);

    private static InetAddress ip(int last) throws Exception {
        return InetAddress.getByAddress(new byte[] {10, 0, 0, (byte) last});
    }

    @Test
    void maxConnectionsCountsEveryAddressAndFreesOnClose() throws Exception {
        ConnectionQuotas quotas = new ConnectionQuotas(2, l -> NONE, NONE, Map.of(), NONE, NONE, nowMs::get, address -> 0);
        assertNull(quotas.tryAccept("PLAINTEXT", ip(1), false));
        assertNull(quotas.tryAccept("PLAINTEXT", ip(2), false));
        assertTrue(quotas.tryAccept("PLAINTEXT", ip(3), false).startsWith("max.connections "));
        quotas.closed("PLAINTEXT", ip(1), false);
        assertNull(quotas.tryAccept("PLAINTEXT", ip(3), false));
        assertEquals(2, quotas.connections());
    }

    @Test
    void perIpLimitWithOverrides() throws Exception {
        ConnectionQuotas quotas = new ConnectionQuotas(NONE, l -> NONE, 1, ConnectionQuotas.resolve(Map.of("10.0.0.2", 3)),
                NONE, NONE, nowMs::get, address -> 0);
        assertNull(quotas.tryAccept("PLAINTEXT", ip(1), false));
        assertTrue(quotas.tryAccept("PLAINTEXT", ip(1), false).startsWith("max.connections.per.ip (1 for 10.0.0.1)"));
        for (int i = 0; i < 3; i++) {
            assertNull(quotas.tryAccept("PLAINTEXT", ip(2), false));
        }
        assertTrue(quotas.tryAccept("PLAINTEXT", ip(2), false).startsWith("max.connections.per.ip (3 "));
        quotas.closed("PLAINTEXT", ip(1), false);
        assertNull(quotas.tryAccept("PLAINTEXT", ip(1), false));
    }

    /** As Kafka's ConnectionQuotas: each override resolved once, connections matched by address, not by spelling. */
    @Test
    void overridesNameHostsAndIpv6AddressesInAnySpelling() throws Exception {
        InetAddress localhost = InetAddress.getByName("localhost");
        ConnectionQuotas quotas = new ConnectionQuotas(NONE, l -> NONE, 0,
                ConnectionQuotas.resolve(Map.of("localhost", 2, "::1", 1)), NONE, NONE, nowMs::get, address -> 0);
        // Addresses as a socket gives them: no host name attached.
        InetAddress peer = InetAddress.getByAddress(localhost.getAddress());
        InetAddress ipv6 = InetAddress.getByAddress(InetAddress.getByName("0:0:0:0:0:0:0:1").getAddress());
        assertNull(quotas.tryAccept("PLAINTEXT", peer, false));
        if (!localhost.equals(ipv6)) {
            assertNull(quotas.tryAccept("PLAINTEXT", peer, false));
            assertNull(quotas.tryAccept("PLAINTEXT", ipv6, false));
        }
        assertTrue(quotas.tryAccept("PLAINTEXT", peer, false).startsWith("max.connections.per.ip"));
        assertTrue(quotas.tryAccept("PLAINTEXT", ipv6, false).startsWith("max.connections.per.ip"));
        assertTrue(quotas.tryAccept("PLAINTEXT", ip(1), false).startsWith("max.connections.per.ip (0 "));
    }

    @Test
    void creationRateIsPerSecond() throws Exception {
        ConnectionQuotas quotas = new ConnectionQuotas(NONE, l -> NONE, NONE, Map.of(), 2, NONE, nowMs::get, address -> 0);
        assertNull(quotas.tryAccept("PLAINTEXT", ip(1), false));
        assertNull(quotas.tryAccept("PLAINTEXT", ip(2), false));
        assertTrue(quotas.tryAccept("PLAINTEXT", ip(3), false).startsWith("max.connection.creation.rate"));
        nowMs.addAndGet(999);
        assertTrue(quotas.tryAccept("PLAINTEXT", ip(3), false).startsWith("max.connection.creation.rate"));
        nowMs.addAndGet(1);
        assertNull(quotas.tryAccept("PLAINTEXT", ip(3), false));
    }

    @Test
    void unauthenticatedConnectionsAreCappedApartUntilTheyAuthenticate() throws Exception {
        ConnectionQuotas quotas = new ConnectionQuotas(NONE, l -> NONE, NONE, Map.of(), NONE, 1, nowMs::get, address -> 0);
        assertNull(quotas.tryAccept("PLAINTEXT", ip(1), true));
        assertTrue(quotas.tryAccept("PLAINTEXT", ip(2), true).startsWith("unauthenticated.max.connections"));
        assertNull(quotas.tryAccept("PLAINTEXT", ip(2), false), "a connection to a listener without SASL is not capped by it");
        quotas.authenticated();
        assertNull(quotas.tryAccept("PLAINTEXT", ip(3), true));
        quotas.closed("PLAINTEXT", ip(3), true);
        assertEquals(0, quotas.unauthenticatedConnections());
        assertEquals(2, quotas.connections());
    }

    @Test
    void aListenersOwnLimitCountsOnlyItsConnections() throws Exception {
        ConnectionQuotas quotas = new ConnectionQuotas(NONE, l -> l.equals("CLIENT") ? 1 : NONE, NONE, Map.of(),
                NONE, NONE, nowMs::get, address -> 0);
        assertNull(quotas.tryAccept("CLIENT", ip(1), false));
        assertTrue(quotas.tryAccept("CLIENT", ip(2), false).startsWith("max.connections of listener CLIENT (1)"));
        assertNull(quotas.tryAccept("BROKER", ip(2), false));
        quotas.closed("CLIENT", ip(1), false);
        assertNull(quotas.tryAccept("CLIENT", ip(2), false));
    }
}
