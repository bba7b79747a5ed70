package io.minibroker.broker.transaction;

import io.minibroker.broker.cluster.ClusterMetadata.BrokerNode;
import io.minibroker.broker.cluster.SilentNode;
import io.minibroker.broker.security.ClientSecurity;
import io.minibroker.protocol.message.ApiKey;
import io.minibroker.protocol.schema.Struct;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.io.IOException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * {@link NodeChannels#close()} is final: a send after it fails at once and starts no channel thread (one would
 * wait on the node until the channel's timeout), and the requests it finds, under way or queued, all fail then,
 * each with the IOException the callers answer with their retriable error.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class NodeChannelsCloseTest {

    /** Long enough that a request failing by the timeout, not by the close, would hang the test. */
    private static final int CHANNEL_TIMEOUT_MS = 600_000;

    @Test
    void aSendAfterCloseFailsAtOnceAndStartsNoThread() throws Exception {
        try (SilentNode silent = new SilentNode()) {
            NodeChannels channels = new NodeChannels("closed-channels", ClientSecurity.NONE, CHANNEL_TIMEOUT_MS);
            channels.close();

            CompletableFuture<Struct> answer = channels.send(node(silent), ApiKey.METADATA,
                    ApiKey.METADATA.highestStableVersion(), metadataRequest());

            assertThat(answer).isCompletedExceptionally();
            assertThatThrownBy(answer::get).isInstanceOf(ExecutionException.class)
                    .hasCauseInstanceOf(IOException.class);
            assertThat(Thread.getAllStackTraces().keySet())
                    .noneMatch(thread -> thread.getName().equals("closed-channels-7"));
        }
    }

    @Test
    void closeFailsTheRequestUnderWayAndTheOneQueuedBehindIt() throws Exception {
        try (SilentNode silent = new SilentNode()) {
            NodeChannels channels = new NodeChannels("closing-channels", ClientSecurity.NONE, CHANNEL_TIMEOUT_MS);
            short version = ApiKey.METADATA.highestStableVersion();
            CompletableFuture<Struct> underWay = channels.send(node(silent), ApiKey.METADATA, version,
                    metadataRequest());
            silent.awaitRequest();
            CompletableFuture<Struct> queued = channels.send(node(silent), ApiKey.METADATA, version,
                    metadataRequest());

            channels.close();

            assertThat(queued).isCompletedExceptionally(); // answered by close itself, not by a thread
            assertThatThrownBy(queued::join).hasCauseInstanceOf(IOException.class);
            assertThatThrownBy(underWay::join).hasCauseInstanceOf(IOException.class);
            silent.awaitConnectionClosed();
        }
    }

    private static BrokerNode node(SilentNode silent) {
        return new BrokerNode(7, "PLAINTEXT", "localhost", silent.port());
    }

    private static Struct metadataRequest() {
        return ApiKey.METADATA.request().newMessage().set("Topics", null);
    }
}
