package io.minibroker.broker.admin;

import io.minibroker.broker.api.ApiHandler;
import io.minibroker.broker.api.RequestContext;
import io.minibroker.broker.config.EligibleLeaderReplicasSafety;
import io.minibroker.broker.feature.FeatureUpdate;
import io.minibroker.broker.feature.FinalizedFeatures;
import io.minibroker.protocol.error.Errors;
import io.minibroker.protocol.message.Request;
import io.minibroker.protocol.message.view.UpdateFeaturesRequestView;
import io.minibroker.protocol.message.view.UpdateFeaturesResponseView;
import io.minibroker.protocol.schema.Struct;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;

/**
 * UpdateFeatures ({@code Admin.updateFeatures}, {@code kafka-features.sh upgrade/downgrade/disable}) where the
 * levels are kept: on a single node and at a cluster's controller (brokers forward it there). Answered as a Kafka
 * 4.3.1 controller answers, checked against one: a refusal is the whole request's, a top-level error with the
 * refused feature's reason behind Kafka's sentence and no per-feature results, at every version; a success lists
 * each feature asked NONE (message "NONE") at v0 and v1, and nothing at v2, whose clients take the top level alone.
 * Runs on the disk thread: a change is written before it is answered.
 */
public final class UpdateFeaturesHandler implements ApiHandler {

    private static final String REFUSED = "The update failed for all features since the following feature had an"
            + " error: ";
    /** From v1 a feature names its upgrade type; v0 has AllowDowngrade. */
    private static final short UPGRADE_TYPE_FROM_VERSION = 1;
    /** From v2 a success carries no per-feature results. */
    private static final short NO_RESULTS_FROM_VERSION = 2;

    private final FinalizedFeatures features;
    private final int nodeId;
    private final EligibleLeaderReplicasSafety elr;

    /** @param elr the configs an update that enables ELR must make safe, as Kafka writes them with the update */
    public UpdateFeaturesHandler(FinalizedFeatures features, int nodeId, EligibleLeaderReplicasSafety elr) {
        this.features = features;
        this.nodeId = nodeId;
        this.elr = elr;
    }

    @Override
    public CompletionStage<Struct> handle(RequestContext context, Request request) {
        UpdateFeaturesRequestView asked = new UpdateFeaturesRequestView(request.body());
        List<FeatureUpdate> updates = new ArrayList<>();
        for (UpdateFeaturesRequestView.FeatureUpdateKey key : asked.featureUpdates()) {
            byte type = request.version() >= UPGRADE_TYPE_FROM_VERSION ? key.upgradeType()
                    : key.allowDowngrade() ? FeatureUpdate.SAFE_DOWNGRADE : FeatureUpdate.UPGRADE;
            updates.add(new FeatureUpdate(key.feature(), key.maxVersionLevel(), type));
        }
        FinalizedFeatures.Update outcome = features.update(updates, asked.validateOnly(), nodeId);
        if (outcome.error() == Errors.NONE && !asked.validateOnly()) {
            try {
                elr.ensure();
            } catch (IOException e) {
                outcome = new FinalizedFeatures.Update(Errors.UNKNOWN_SERVER_ERROR,
                        "cannot store the cluster-level min.insync.replicas: " + e.getMessage());
            }
        }
        UpdateFeaturesResponseView response = new UpdateFeaturesResponseView().errorCode(outcome.error().code());
        if (outcome.error() != Errors.NONE) {
            response.errorMessage(outcome.error() == Errors.INVALID_UPDATE_VERSION ? REFUSED + outcome.message()
                    : outcome.message());
        } else if (request.version() < NO_RESULTS_FROM_VERSION) {
            for (FeatureUpdate update : updates) {
                response.addResult().feature(update.feature()).errorCode(Errors.NONE.code())
                        .errorMessage(Errors.NONE.name());
            }
        }
        return CompletableFuture.completedFuture(response.struct());
    }
}
