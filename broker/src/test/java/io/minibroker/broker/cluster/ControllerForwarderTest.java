package io.minibroker.broker.cluster;

import io.minibroker.broker.embedded.EmbeddedBroker;
import io.minibroker.protocol.error.Errors;
import io.minibroker.protocol.message.ApiKey;
import io.minibroker.protocol.message.view.ApiVersionsRequestView;
import io.minibroker.protocol.message.view.CreateTopicsRequestView;
import io.minibroker.protocol.message.view.CreateTopicsResponseView;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@link ControllerForwarder}'s one resend: a request whose connection the controller closed while it was idle (as a
 * restarted controller has) is sent again on a new connection and answered, not failed. A single node stands in for
 * the controller: it answers CreateTopics itself, and its controls close its connections as a restart would.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class ControllerForwarderTest {

    private static final int SOCKET_TIMEOUT_MS = 30_000;

    @Test
    void aRequestOnAConnectionTheControllerClosedIsResentOnANewOne() throws Exception {
        ExecutorService forwarding = Executors.newSingleThreadExecutor();
        try (EmbeddedBroker controller = EmbeddedBroker.start();
             NodeChannel channel = new NodeChannel("localhost", controller.broker().boundPort("PLAINTEXT"),
                     "forwarder-test", SOCKET_TIMEOUT_MS);
             NodeChannel noImage = new NodeChannel("localhost", 1, "forwarder-test-metadata", SOCKET_TIMEOUT_MS)) {
            channel.send(ApiKey.API_VERSIONS, new ApiVersionsRequestView().struct()); // the connection is open
            controller.controls().closeConnections(); // and now closed at the controller's end, unknown to the channel
            noImage.abort(); // the image fetched after the answer is not this test's: its fetch fails at once
            MetadataFetcher metadata = new MetadataFetcher(noImage, noImage, 1, 0, "PLAINTEXT", image -> { },
                    security -> { });
            ControllerForwarder forwarder = new ControllerForwarder(channel, metadata, forwarding);
            CreateTopicsRequestView create = new CreateTopicsRequestView().timeoutMs(10_000);
            create.addTopic().name("resent").numPartitions(1).replicationFactor((short) 1);

            CreateTopicsResponseView answer = new CreateTopicsResponseView(
                    forwarder.forward(ApiKey.CREATE_TOPICS, (short) 7, create.struct()).get(30, TimeUnit.SECONDS));

            assertThat(answer.topics()).singleElement()
                    .satisfies(topic -> assertThat(topic.errorCode()).isEqualTo(Errors.NONE.code()));
        } finally {
            forwarding.shutdownNow();
        }
    }
}
