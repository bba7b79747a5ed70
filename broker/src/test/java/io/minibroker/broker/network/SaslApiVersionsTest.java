package io.minibroker.broker.network;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.minibroker.broker.api.SupportedApis;
import io.minibroker.broker.metrics.NetworkMetrics;
import io.minibroker.broker.security.JaasConfig;
import io.minibroker.broker.security.PlainUsers;
import io.minibroker.broker.security.SaslSession;
import io.minibroker.broker.time.BrokerClock;
import io.minibroker.protocol.error.Errors;
import io.minibroker.protocol.frame.Frames;
import io.minibroker.protocol.header.RequestHeader;
import io.minibroker.protocol.message.ApiKey;
import io.minibroker.protocol.message.MessageCodec;
import io.minibroker.protocol.message.view.ApiVersionsResponseView;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.channel.embedded.EmbeddedChannel;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Before a SASL handshake, only an ApiVersions answered with the table uses up the one ApiVersions a connection
 * may send, as in Kafka's SaslServerAuthenticator: one answered with an error (INVALID_REQUEST for a bad client
 * software name) may be retried.
 */
class SaslApiVersionsTest {

    private static ByteBuf apiVersionsFrame(int correlationId) {
        ByteBuf request = MessageCodec.encodeRequest(ByteBufAllocator.DEFAULT,
                new RequestHeader(ApiKey.API_VERSIONS.id(), (short) 3, correlationId, "test"),
                ApiKey.API_VERSIONS.request().newMessage().set("ClientSoftwareName", "x")
                        .set("ClientSoftwareVersion", "1"));
        return request.skipBytes(Frames.SIZE_PREFIX_BYTES);
    }

    @Test
    void anApiVersionsAnsweredWithAnErrorMayBeRetriedOneAnsweredWithTheTableMayNot() {
        List<Errors> answers = new ArrayList<>(List.of(Errors.INVALID_REQUEST, Errors.NONE));
        SupportedApis apis = new SupportedApis();
        apis.add(ApiKey.API_VERSIONS, (context, request) -> CompletableFuture.completedFuture(
                new ApiVersionsResponseView().errorCode(answers.remove(0).code()).struct()));
        SaslSession sasl = new SaslSession(List.of("PLAIN"), PlainUsers.from(List.of(JaasConfig.parseProperty(
                PlainUsers.LOGIN_MODULE + " required user_alice=\"alice-secret\";"))), null, null,
                new SaslSession.Limits(524_288, 100), new SaslSession.Lifetimes(Map.of(), () -> 0, () -> 0));
        EmbeddedChannel channel = new EmbeddedChannel(new RequestHandler(apis, "SASL_PLAINTEXT",
                new NetworkMetrics(new SimpleMeterRegistry(), "SASL_PLAINTEXT", apis.entries().keySet(),
                        BrokerClock.system()), sasl, null, null, null));

        channel.writeInbound(apiVersionsFrame(1));
        channel.runPendingTasks();
        assertThat(channel.isActive()).as("answered INVALID_REQUEST: the client may ask again").isTrue();
        channel.writeInbound(apiVersionsFrame(2));
        channel.runPendingTasks();
        assertThat(channel.isActive()).as("the retry is answered").isTrue();
        channel.writeInbound(apiVersionsFrame(3));
        channel.runPendingTasks();
        assertThat(channel.isActive()).as("a second ApiVersions after the table closes, as Kafka's").isFalse();
        releaseOutbound(channel);
    }

    private static void releaseOutbound(EmbeddedChannel channel) {
        for (Object written = channel.readOutbound(); written != null; written = channel.readOutbound()) {
            io.netty.util.ReferenceCountUtil.release(written);
        }
    }
}
