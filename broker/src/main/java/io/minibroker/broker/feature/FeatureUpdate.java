package io.minibroker.broker.feature;

/**
 * One feature an UpdateFeatures asks to change: the level wanted and how ({@code UpgradeType}: 1 upgrade, 2 safe
 * downgrade, 3 unsafe downgrade; any other code is Kafka's UNKNOWN). A v0 request's AllowDowngrade is a safe
 * downgrade when set, as Kafka's UpdateFeaturesRequest reads it.
 */
public record FeatureUpdate(String feature, short level, byte upgradeType) {

    public static final byte UPGRADE = 1;
    public static final byte SAFE_DOWNGRADE = 2;
    public static final byte UNSAFE_DOWNGRADE = 3;

    boolean knownType() {
        return upgradeType == UPGRADE || upgradeType == SAFE_DOWNGRADE || upgradeType == UNSAFE_DOWNGRADE;
    }
}
