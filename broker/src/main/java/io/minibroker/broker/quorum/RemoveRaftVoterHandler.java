package io.minibroker.broker.quorum;

import io.minibroker.broker.api.ApiHandler;
import io.minibroker.broker.api.RequestContext;
import io.minibroker.protocol.message.Request;
import io.minibroker.protocol.message.view.RemoveRaftVoterRequestView;
import io.minibroker.protocol.message.view.RemoveRaftVoterResponseView;
import io.minibroker.protocol.schema.Struct;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;

/**
 * RemoveRaftVoter ({@code kafka-metadata-quorum.sh remove-controller}, {@code Admin.removeRaftVoter}) where the
 * controller is: on a single node and at a cluster's controller (brokers forward it there, as Kafka's do). Refused as
 * a Kafka 4.3.1 quorum of this one voter refuses it ({@link VoterChangeRefusal}): a voter named without a directory
 * id is no valid voter; any other, this node itself too, cannot be removed at kraft.version 0, and is not found among
 * the voters at kraft.version 1 (where Kafka's voter set never loses its last voter).
 */
public final class RemoveRaftVoterHandler implements ApiHandler {

    private final String clusterId;
    private final VoterSet voters;

    public RemoveRaftVoterHandler(String clusterId, VoterSet voters) {
        this.clusterId = clusterId;
        this.voters = voters;
    }

    @Override
    public CompletionStage<Struct> handle(RequestContext context, Request request) {
        RemoveRaftVoterRequestView remove = new RemoveRaftVoterRequestView(request.body());
        VoterChangeRefusal refusal = VoterChangeRefusal.of(VoterChangeRefusal.Change.REMOVE, clusterId,
                remove.clusterId(), remove.voterId(), remove.voterDirectoryId(), () -> null, voters);
        return CompletableFuture.completedFuture(new RemoveRaftVoterResponseView()
                .errorCode(refusal.error().code()).errorMessage(refusal.message()).struct());
    }
}
