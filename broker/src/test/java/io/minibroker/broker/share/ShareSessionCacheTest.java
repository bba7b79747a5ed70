package io.minibroker.broker.share;

import io.minibroker.broker.share.ShareSessionCache.TopicIdPartition;
import io.minibroker.protocol.error.Errors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.net.InetSocketAddress;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The drop of a group's share partitions when its last session here ended, against a session of the group opening
 * at the same time: the look for sessions and the drop are one step, which the opening session waits for, so it
 * never picks up a share partition that is then dropped.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class ShareSessionCacheTest {

    private static final List<TopicIdPartition> PARTITIONS = List.of(new TopicIdPartition(UUID.randomUUID(), 0));

    private static ShareSessionCache.Resolution open(ShareSessionCache sessions, String memberId) {
        return sessions.forFetch("g", memberId, ShareSessionCache.INITIAL_EPOCH, PARTITIONS, List.of(),
                new InetSocketAddress("127.0.0.1", 1001));
    }

    @Test
    void aSessionOpeningWhileItsGroupsSharePartitionsAreDroppedWaitsForTheDrop() throws Exception {
        ShareSessionCache sessions = new ShareSessionCache(10);
        CompletableFuture<ShareSessionCache.Resolution> opened = new CompletableFuture<>();
        Thread opener = new Thread(() -> opened.complete(open(sessions, "m2")), "opener");
        AtomicBoolean openedDuringDrop = new AtomicBoolean();
        sessions.dropIfNoSessions("g", () -> {
            opener.start();
            // The opener either waits for the drop (blocked on the cache) or, were the two not one step, opens.
            while (opener.getState() != Thread.State.BLOCKED && !opened.isDone()) {
                Thread.onSpinWait();
            }
            openedDuringDrop.set(opened.isDone());
        });
        assertThat(openedDuringDrop).as("a session opened between the look for sessions and the drop").isFalse();
        assertThat(opened.get(10, TimeUnit.SECONDS).error()).isEqualTo(Errors.NONE);
    }

    @Test
    void nothingIsDroppedWhileAMemberOfTheGroupHasASession() {
        ShareSessionCache sessions = new ShareSessionCache(10);
        open(sessions, "m1");
        AtomicBoolean dropped = new AtomicBoolean();
        sessions.dropIfNoSessions("g", () -> dropped.set(true));
        assertThat(dropped).isFalse();
        sessions.dropIfNoSessions("other", () -> dropped.set(true));
        assertThat(dropped).as("another group has no session here").isTrue();
    }
}
