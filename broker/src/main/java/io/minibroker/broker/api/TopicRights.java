package io.minibroker.broker.api;

/**
 * What a request's principal may do with topics the request itself may not name, for the handlers that must leave
 * the others out themselves: a KIP-848 member's regular expression matches topics (DESCRIBE), a share session fetches
 * the partitions earlier requests named (READ), a streams group's heartbeat has the internal topics its topology
 * lacks created (CREATE, on the cluster or the topic, as KafkaApis checks it). The authorizer's checks set it; without an authorizer, everything.
 */
public interface TopicRights {

    TopicRights ALL = new TopicRights() {
        @Override
        public boolean mayDescribe(String topic) {
            return true;
        }

        @Override
        public boolean mayRead(String topic) {
            return true;
        }

        @Override
        public boolean mayCreate(String topic) {
            return true;
        }
    };

    boolean mayDescribe(String topic);

    boolean mayRead(String topic);

    boolean mayCreate(String topic);
}
