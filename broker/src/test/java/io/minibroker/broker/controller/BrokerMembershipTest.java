package io.minibroker.broker.controller;

import io.minibroker.broker.config.Endpoint;
import io.minibroker.protocol.error.Errors;
import org.junit.jupiter.api.Test;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

import static org.assertj.core.api.Assertions.assertThat;

class BrokerMembershipTest {

    private static final List<Endpoint> LISTENERS = List.of(new Endpoint("PLAINTEXT", "localhost", 9092));

    private final AtomicLong now = new AtomicLong(1_000);
    /** How often the image changed: each time a broker registered, became live or stopped being live. */
    private final AtomicInteger imageChanges = new AtomicInteger();
    /** The controller's image version, which registrations and heartbeats are measured against. */
    private final AtomicLong imageVersion = new AtomicLong();
    /** The version each broker's last metadata fetch said it had applied; unset: whatever it reports. */
    private final Map<Integer, Long> fetchedVersions = new HashMap<>();
    private final BrokerMembership membership = new BrokerMembership(9_000, now::get, imageVersion::get,
            id -> fetchedVersions.getOrDefault(id, Long.MAX_VALUE), imageChanges::incrementAndGet);

    @Test
    void everyRegistrationAndChangeOfWhoIsLiveIsToldAndNothingElse() {
        long epoch = membership.register(1, UUID.randomUUID(), LISTENERS, null).epoch();
        assertThat(imageChanges).as("registered, still fenced").hasValue(1);

        membership.heartbeat(1, epoch, 0, false, false);
        assertThat(imageChanges).as("unfenced").hasValue(2);
        membership.heartbeat(1, epoch, 0, false, false);
        assertThat(imageChanges).as("still live").hasValue(2);

        now.addAndGet(9_001);
        membership.fenceExpiredSessions();
        assertThat(imageChanges).as("session expired").hasValue(3);
        membership.fenceExpiredSessions();
        assertThat(imageChanges).as("already fenced").hasValue(3);
        assertThat(membership.isFenced(1)).isTrue();

        membership.heartbeat(1, epoch, 0, false, false);
        assertThat(imageChanges).as("back").hasValue(4);
        assertThat(membership.isLive(1)).isTrue();
        membership.heartbeat(1, epoch, 0, false, true);
        assertThat(imageChanges).as("shutting down").hasValue(5);
    }

    @Test
    void aRestartedControllerUnfencesOnlyOnAVersionTheBrokersFetchesToItReported() {
        imageVersion.set(3); // this controller's life has made three changes
        long epoch = membership.register(1, UUID.randomUUID(), LISTENERS, null).epoch();
        fetchedVersions.put(1, -1L); // its fetcher has not reached this controller yet

        assertThat(membership.heartbeat(1, epoch, 57, false, false)).as("a version of the previous life")
                .isEqualTo(new BrokerMembership.Heartbeat(Errors.NONE, false, true, false));
        assertThat(liveIds()).isEmpty();

        fetchedVersions.put(1, 3L);
        assertThat(membership.heartbeat(1, epoch, 3, false, false)).as("fetched the image of its registration")
                .isEqualTo(new BrokerMembership.Heartbeat(Errors.NONE, true, false, false));
        assertThat(liveIds()).containsExactly(1);
    }

    @Test
    void aBrokerIsLiveFromItsFirstHeartbeatUntilItsSessionExpires() {
        long epoch = membership.register(1, UUID.randomUUID(), LISTENERS, null).epoch();
        assertThat(liveIds()).as("fenced until it heartbeats").isEmpty();

        assertThat(membership.heartbeat(1, epoch, 0, false, false)).isEqualTo(
                new BrokerMembership.Heartbeat(Errors.NONE, true, false, false));
        assertThat(liveIds()).containsExactly(1);

        now.addAndGet(9_000);
        assertThat(liveIds()).containsExactly(1);
        now.addAndGet(1);
        assertThat(liveIds()).isEmpty();
    }

    @Test
    void anotherIncarnationOfALiveBrokerIsRefusedUntilTheOldSessionExpires() {
        UUID first = UUID.randomUUID();
        long epoch = membership.register(1, first, LISTENERS, null).epoch();
        membership.heartbeat(1, epoch, 0, false, false);

        assertThat(membership.register(1, first, LISTENERS, null).epoch()).as("a retry").isEqualTo(epoch);
        UUID second = UUID.randomUUID();
        assertThat(membership.register(1, second, LISTENERS, null).error()).isEqualTo(Errors.DUPLICATE_BROKER_REGISTRATION);

        now.addAndGet(9_001);
        BrokerMembership.Registration again = membership.register(1, second, LISTENERS, null);
        assertThat(again.error()).isEqualTo(Errors.NONE);
        assertThat(again.epoch()).isGreaterThan(epoch);
        assertThat(membership.heartbeat(1, epoch, 0, false, false).error()).isEqualTo(Errors.STALE_BROKER_EPOCH);
    }

    @Test
    void aShuttingDownBrokerIsFencedAtOnceAndMayComeBack() {
        long epoch = membership.register(2, UUID.randomUUID(), LISTENERS, null).epoch();
        membership.heartbeat(2, epoch, 0, false, false);

        assertThat(membership.heartbeat(2, epoch, 0, false, true)).isEqualTo(
                new BrokerMembership.Heartbeat(Errors.NONE, true, true, true));
        assertThat(liveIds()).isEmpty();
        assertThat(membership.register(2, UUID.randomUUID(), LISTENERS, null).error()).isEqualTo(Errors.NONE);
    }

    @Test
    void aRegisteringBrokerStaysFencedUntilItHasAppliedTheImageItRegisteredAt() {
        imageVersion.set(5);
        long epoch = membership.register(1, UUID.randomUUID(), LISTENERS, null).epoch();
        imageVersion.set(6); // the image moves on after the registration

        assertThat(membership.heartbeat(1, epoch, -1, false, false)).as("no image yet")
                .isEqualTo(new BrokerMembership.Heartbeat(Errors.NONE, false, true, false));
        assertThat(membership.heartbeat(1, epoch, 4, false, false)).as("an image older than its registration")
                .isEqualTo(new BrokerMembership.Heartbeat(Errors.NONE, false, true, false));
        assertThat(membership.heartbeat(1, epoch, 6, true, false)).as("caught up, but still loading it")
                .isEqualTo(new BrokerMembership.Heartbeat(Errors.NONE, true, true, false));
        assertThat(liveIds()).isEmpty();
        assertThat(imageChanges).as("the registration only").hasValue(1);

        assertThat(membership.heartbeat(1, epoch, 5, false, false)).as("the image of its registration")
                .isEqualTo(new BrokerMembership.Heartbeat(Errors.NONE, false, false, false));
        assertThat(liveIds()).containsExactly(1);
        assertThat(membership.heartbeat(1, epoch, 5, false, false).fenced()).as("live brokers stay live while "
                + "they follow").isFalse();
    }

    /**
     * A registration is in the image, as Kafka's RegisterBrokerRecord in its log: brokers fetch the image that has
     * the fenced newcomer (DescribeCluster v2 lists it), and the newcomer must apply that version to be unfenced.
     */
    @Test
    void aRegistrationMovesTheImageOnAndTheBrokerMustApplyTheVersionThatHasIt() {
        AtomicLong version = new AtomicLong(5);
        BrokerMembership counting = new BrokerMembership(9_000, now::get, version::get, id -> Long.MAX_VALUE,
                version::incrementAndGet); // as ImageVersion.changed
        UUID incarnation = UUID.randomUUID();
        long epoch = counting.register(1, incarnation, LISTENERS, null).epoch();
        assertThat(version).as("the image with the fenced broker").hasValue(6);
        assertThat(counting.registered().fenced()).extracting(BrokerMembership.RegisteredBroker::id).containsExactly(1);

        counting.register(1, incarnation, LISTENERS, null);
        assertThat(version).as("a retry changes nothing").hasValue(6);
        assertThat(counting.heartbeat(1, epoch, 5, false, false).fenced()).as("the image before it").isTrue();
        assertThat(counting.heartbeat(1, epoch, 6, false, false).fenced()).isFalse();
    }

    @Test
    void heartbeatsFromStrangersAreRefused() {
        assertThat(membership.heartbeat(7, 1, 0, false, false).error()).isEqualTo(Errors.BROKER_ID_NOT_REGISTERED);
    }

    private List<Integer> liveIds() {
        return membership.liveBrokers().stream().map(BrokerMembership.RegisteredBroker::id).toList();
    }
}
