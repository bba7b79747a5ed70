package io.minibroker.broker.quorum;

import io.minibroker.broker.api.ApiHandler;
import io.minibroker.broker.api.RequestContext;
import io.minibroker.protocol.error.Errors;
import io.minibroker.protocol.message.Request;
import io.minibroker.protocol.message.view.AddRaftVoterRequestView;
import io.minibroker.protocol.message.view.AddRaftVoterResponseView;
import io.minibroker.protocol.schema.Struct;

import java.net.InetSocketAddress;
import java.util.HashMap;
import java.util.Locale;
import java.util.Map;
import java.util.StringJoiner;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.function.Supplier;

/**
 * AddRaftVoter ({@code kafka-metadata-quorum.sh add-controller}, {@code Admin.addRaftVoter}) where the controller is:
 * on a single node and at a cluster's controller (brokers forward it there, as Kafka's do). Refused as a Kafka 4.3.1
 * quorum of this one voter refuses it at the finalized kraft.version ({@link VoterChangeRefusal}); between the voter's
 * check and kraft.version's, Kafka's check that the new voter names an endpoint on the quorum's default listener, the
 * listener the leader's own Raft traffic goes by. A new voter id at kraft.version 1 is then asked for its ApiVersions
 * on that endpoint, as Kafka's leader asks it ({@link NewVoterApiVersions}), and answered from what it answers; no
 * other change is taken meanwhile.
 */
public final class AddRaftVoterHandler implements ApiHandler {

    private final String clusterId;
    private final Supplier<String> defaultListener;
    private final VoterSet voters;
    private final NewVoterApiVersions newVoter;

    /**
     * @param defaultListener the listener Kafka's message names: its first {@code controller.listener.names}
     */
    public AddRaftVoterHandler(String clusterId, Supplier<String> defaultListener, VoterSet voters,
                               NewVoterApiVersions newVoter) {
        this.clusterId = clusterId;
        this.defaultListener = defaultListener;
        this.voters = voters;
        this.newVoter = newVoter;
    }

    @Override
    public CompletionStage<Struct> handle(RequestContext context, Request request) {
        AddRaftVoterRequestView add = new AddRaftVoterRequestView(request.body());
        Map<String, InetSocketAddress> endpoints = endpoints(add);
        String listenerName = defaultListener.get();
        String listener = normalised(listenerName);
        VoterChangeRefusal refusal = VoterChangeRefusal.of(VoterChangeRefusal.Change.ADD, clusterId, add.clusterId(),
                add.voterId(), add.voterDirectoryId(), () -> endpoints.containsKey(listener) ? null
                        : refusalOfEndpoints(endpoints, listener), voters);
        if (refusal != null) {
            return CompletableFuture.completedFuture(answer(refusal));
        }
        // Another addition may have begun since the check: Kafka's leader, one event at a time, would have seen it.
        if (!voters.beginChange()) {
            return CompletableFuture.completedFuture(answer(VoterChangeRefusal.PENDING));
        }
        ReplicaKey voter = new ReplicaKey(add.voterId(), add.voterDirectoryId());
        return newVoter.ask(endpoints.get(listener), listenerName).handle((answered, timedOut) -> {
            voters.endChange();
            return answer(timedOut != null ? VoterChangeRefusal.TIMED_OUT
                    : VoterChangeRefusal.ofNewVoter(voter, answered, voters.kraftVersion()));
        });
    }

    private static Struct answer(VoterChangeRefusal refusal) {
        return new AddRaftVoterResponseView().errorCode(refusal.error().code()).errorMessage(refusal.message())
                .struct();
    }

    /**
     * The voter's endpoints as Kafka reads them: a HashMap from each listener's normalised name, whose hash is its
     * name's, to an unresolved address, so that a HashMap of the names iterates in its order.
     */
    private static Map<String, InetSocketAddress> endpoints(AddRaftVoterRequestView add) {
        Map<String, InetSocketAddress> endpoints = new HashMap<>(add.listeners().size());
        for (AddRaftVoterRequestView.Listener listener : add.listeners()) {
            endpoints.put(normalised(listener.name()), InetSocketAddress.createUnresolved(listener.host(),
                    listener.port()));
        }
        return endpoints;
    }

    /**
     * The refusal of a voter without an endpoint on the default listener, printed as Kafka prints them: its Endpoints
     * and its ListenerName.
     */
    private static VoterChangeRefusal refusalOfEndpoints(Map<String, InetSocketAddress> endpoints, String listener) {
        StringJoiner printed = new StringJoiner(", ", "Endpoints(endpoints={", "})");
        endpoints.forEach((name, address) -> printed.add(listenerName(name) + "=" + address));
        return new VoterChangeRefusal(Errors.INVALID_REQUEST, String.format(
                "Add voter request didn't include the endpoint (%s) for the default listener %s", printed,
                listenerName(listener)));
    }

    /** Kafka's ListenerName.normalised: listener names compare in upper case. */
    private static String normalised(String listenerName) {
        return listenerName.toUpperCase(Locale.ROOT);
    }

    private static String listenerName(String normalised) {
        return "ListenerName(" + normalised + ")";
    }
}
