package io.minibroker.broker.sasl;

import io.minibroker.broker.api.ApiHandler;
import io.minibroker.broker.api.RequestContext;
import io.minibroker.broker.security.SaslSession;
import io.minibroker.protocol.error.Errors;
import io.minibroker.protocol.message.Request;
import io.minibroker.protocol.message.view.SaslAuthenticateRequestView;
import io.minibroker.protocol.message.view.SaslAuthenticateResponseView;
import io.minibroker.protocol.schema.Struct;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;

/**
 * SaslAuthenticate: the client's SASL token for the mechanism its handshake chose ({@link SaslSession}), answered
 * with the server's (none for PLAIN, which takes one round; SCRAM takes two). Success answers the session's lifetime
 * (KIP-368: 0 unless {@code connections.max.reauth.ms} is set or a token signed the client in); a failure is logged and
 * answered SASL_AUTHENTICATION_FAILED, and the connection closes. Where there is nothing to authenticate it is
 * ILLEGAL_SASL_STATE, as Kafka answers it.
 */
public final class SaslAuthenticateHandler implements ApiHandler {

    private static final Logger LOG = LoggerFactory.getLogger(SaslAuthenticateHandler.class);

    @Override
    public CompletionStage<Struct> handle(RequestContext context, Request request) {
        SaslSession sasl = context.sasl();
        SaslSession.Step step;
        if (sasl == null || sasl.isAuthenticated()) {
            step = new SaslSession.Step(Errors.ILLEGAL_SASL_STATE,
                    "SaslAuthenticate request received after successful authentication");
        } else {
            step = sasl.authenticate(new SaslAuthenticateRequestView(request.body()).authBytes(), request.version());
            if (step.error() == Errors.NONE && sasl.isAuthenticated()) {
                LOG.debug("{} authenticated as {} on {}", context.clientAddress(), sasl.principal(),
                        context.listenerName());
            } else if (step.error() != Errors.NONE) {
                LOG.info("Failed authentication with {} on {} ({})", context.clientAddress(), context.listenerName(),
                        step.message());
            }
        }
        return CompletableFuture.completedFuture(new SaslAuthenticateResponseView()
                .errorCode(step.error().code())
                .errorMessage(step.message())
                .authBytes(step.serverToken())
                .sessionLifetimeMs(step.sessionLifetimeMs())
                .struct());
    }
}
