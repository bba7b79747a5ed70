package io.minibroker.broker.feature;

import java.util.EnumMap;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Kafka 4.3.1's controller's checks of an UpdateFeatures (QuorumController.updateFeatures, FeatureControlManager),
 * with its messages, checked against one: the features are taken in the order Kafka's controller takes them, that of
 * a {@link HashMap} of their names, and the first refused fails the whole request. Not checked: the features'
 * dependencies on {@code metadata.version}, which are all met since {@code metadata.version} stays at its highest
 * level (every downgrade of it is refused, as Kafka 4.3.1 refuses one from 4.3-IV0), and other nodes' supported
 * ranges, which are this node's (every node runs this code).
 */
final class FeatureUpdates {

    /** The outcome: the levels to finalize, or why the request is refused (the whole of it). */
    record Outcome(Map<Feature, Short> changes, String refusal) {
    }

    private FeatureUpdates() {
    }

    /**
     * @param controllerId the node that checks, named in Kafka's messages ("Local controller N ...")
     */
    static Outcome check(FeatureLevels current, List<FeatureUpdate> updates, int controllerId) {
        // As Kafka's controller, a feature named twice is asked for at the level named last; and as there, the order
        // of a HashMap of the names decides which refusal of several the request is answered with.
        HashMap<String, FeatureUpdate> byName = new HashMap<>();
        updates.forEach(update -> byName.put(update.feature(), update));
        Map<Feature, Short> changes = new EnumMap<>(Feature.class);
        for (FeatureUpdate update : byName.values()) {
            String problem = problem(current, update, controllerId);
            if (problem != null) {
                return new Outcome(Map.of(), problem);
            }
            changes.put(Feature.named(update.feature()), update.level());
        }
        return new Outcome(changes, null);
    }

    private static String problem(FeatureLevels current, FeatureUpdate update, int controllerId) {
        if (!update.knownType()) {
            return invalid(update, "The controller does not support the given upgrade type.");
        }
        if (update.level() < 0) {
            return invalid(update, "A feature version cannot be less than 0.");
        }
        Feature feature = Feature.named(update.feature());
        if (feature == null) {
            // Level 0 is within the "disabled" range Kafka gives an unknown feature; the feature look-up refuses it.
            return invalid(update, update.level() == 0 ? "Feature " + update.feature() + " not found."
                    : "Local controller " + controllerId + " does not support this feature.");
        }
        if (update.level() < feature.minSupported() || update.level() > feature.maxSupported()) {
            return invalid(update, "Local controller " + controllerId + " only supports versions "
                    + feature.minSupported() + "-" + feature.maxSupported());
        }
        short level = current.level(feature);
        if (update.level() < level && update.upgradeType() == FeatureUpdate.UPGRADE) {
            return invalid(update, "Can't downgrade the version of this feature without setting the upgrade type to"
                    + " either safe or unsafe downgrade.");
        }
        if (update.level() > level && update.upgradeType() != FeatureUpdate.UPGRADE) {
            return invalid(update, "Can't downgrade to a newer version.");
        }
        if (feature == Feature.KRAFT_VERSION && update.level() != level
                && update.upgradeType() != FeatureUpdate.UPGRADE) {
            return invalid(update, "Can't downgrade the version of this feature.");
        }
        if (feature == Feature.METADATA_VERSION && update.level() < level) {
            return "Unsupported metadata.version downgrade from " + level + " to " + update.level() + ". "
                    + (update.upgradeType() == FeatureUpdate.UNSAFE_DOWNGRADE
                    ? "Unsafe metadata downgrade is not supported in this version."
                    : "Refusing to perform the requested downgrade because it might delete metadata information.");
        }
        return null;
    }

    private static String invalid(FeatureUpdate update, String reason) {
        return "Invalid update version " + update.level() + " for feature " + update.feature() + ". " + reason;
    }
}
