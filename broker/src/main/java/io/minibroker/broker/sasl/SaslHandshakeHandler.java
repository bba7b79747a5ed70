package io.minibroker.broker.sasl;

import io.minibroker.broker.api.ApiHandler;
import io.minibroker.broker.api.RequestContext;
import io.minibroker.broker.security.SaslSession;
import io.minibroker.protocol.error.Errors;
import io.minibroker.protocol.message.Request;
import io.minibroker.protocol.message.view.SaslHandshakeRequestView;
import io.minibroker.protocol.message.view.SaslHandshakeResponseView;
import io.minibroker.protocol.schema.Struct;

import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;

/**
 * SaslHandshake: the first step of a {@code SASL_PLAINTEXT} connection's authentication ({@link SaslSession}),
 * answered with the mechanisms the listener offers. Where there is nothing to authenticate (a PLAINTEXT listener, or
 * a connection already authenticated) it is ILLEGAL_SASL_STATE, as Kafka answers it.
 */
public final class SaslHandshakeHandler implements ApiHandler {

    @Override
    public CompletionStage<Struct> handle(RequestContext context, Request request) {
        SaslHandshakeResponseView response = new SaslHandshakeResponseView();
        SaslSession sasl = context.sasl();
        if (sasl == null || sasl.isAuthenticated()) {
            response.errorCode(Errors.ILLEGAL_SASL_STATE.code()).mechanisms(List.of());
        } else {
            SaslSession.Step step = sasl.handshake(new SaslHandshakeRequestView(request.body()).mechanism(),
                    request.version());
            response.errorCode(step.error().code()).mechanisms(sasl.enabledMechanisms());
        }
        return CompletableFuture.completedFuture(response.struct());
    }
}
