package io.minibroker.broker.metrics;

import java.util.function.DoubleSupplier;

/**
 * Where a quota kind's per-entity metrics go, as Kafka's quota sensors: made with the rate of an entity (a user and
 * client id as the quota's tags name them, {@code ""} where a tag is not used) and dropped with it once it has been
 * idle for an hour.
 */
public interface QuotaMeters {

    /** Nothing exported (a quota kind no one reads, or a test's). */
    QuotaMeters NONE = new QuotaMeters() {
        @Override
        public Entity entity(String user, String clientId, DoubleSupplier rate) {
            return Entity.NONE;
        }

        @Override
        public Entity tokenBucketEntity(String user, String clientId, DoubleSupplier rate, DoubleSupplier tokens) {
            return Entity.NONE;
        }
    };

    /** Makes the metrics of a quota kind: Kafka's QuotaType name ({@code Produce}...) and its rate's name. */
    interface Factory {
        Factory NONE = (quotaType, rateName) -> QuotaMeters.NONE;

        QuotaMeters of(String quotaType, String rateName);
    }

    /**
     * @param user     the principal's name as the tags have it, unsanitized
     * @param clientId the client id as the tags have it
     * @param rate     the entity's rate now, read when the metrics are
     */
    Entity entity(String user, String clientId, DoubleSupplier rate);

    /**
     * As {@link #entity}, for a quota kind bounded by a token bucket (ControllerMutation, KIP-599): also Kafka's
     * {@code tokens}, what is left in the entity's bucket now.
     *
     * @param tokens the entity's tokens now, read when the metrics are
     */
    Entity tokenBucketEntity(String user, String clientId, DoubleSupplier rate, DoubleSupplier tokens);

    /** One entity's metrics. */
    interface Entity {
        Entity NONE = new Entity() {
            @Override
            public void throttled(int throttleMs) {
            }

            @Override
            public void remove() {
            }
        };

        /** The entity's client was throttled for this long, by this quota kind (its throttle-time). */
        void throttled(int throttleMs);

        void remove();
    }
}
