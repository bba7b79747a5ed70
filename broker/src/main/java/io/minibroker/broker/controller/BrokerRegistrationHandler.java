package io.minibroker.broker.controller;

import io.minibroker.broker.api.ApiHandler;
import io.minibroker.broker.api.RequestContext;
import io.minibroker.broker.config.Endpoint;
import io.minibroker.protocol.error.Errors;
import io.minibroker.protocol.message.Request;
import io.minibroker.protocol.message.view.BrokerRegistrationRequestView;
import io.minibroker.protocol.message.view.BrokerRegistrationResponseView;
import io.minibroker.protocol.schema.Struct;

import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;

/** BrokerRegistration, on the controller's listener: a starting broker joins the cluster and gets its epoch. */
public final class BrokerRegistrationHandler implements ApiHandler {

    private final String clusterId;
    private final BrokerMembership membership;

    public BrokerRegistrationHandler(String clusterId, BrokerMembership membership) {
        this.clusterId = clusterId;
        this.membership = membership;
    }

    @Override
    public CompletionStage<Struct> handle(RequestContext context, Request request) {
        BrokerRegistrationRequestView registration = new BrokerRegistrationRequestView(request.body());
        BrokerRegistrationResponseView response = new BrokerRegistrationResponseView();
        if (!clusterId.equals(registration.clusterId())) {
            response.errorCode(Errors.INCONSISTENT_CLUSTER_ID.code());
        } else {
            List<Endpoint> listeners = registration.listeners().stream()
                    .map(l -> new Endpoint(l.name(), l.host(), l.port())).toList();
            BrokerMembership.Registration outcome = membership.register(registration.brokerId(),
                    registration.incarnationId(), listeners, registration.rack());
            response.errorCode(outcome.error().code()).brokerEpoch(outcome.epoch());
        }
        return CompletableFuture.completedFuture(response.struct());
    }
}
