package io.minibroker.broker.group;

/** The protocol a group follows, by Kafka's name for it (Kafka's Group.GroupType). */
enum GroupType {
    CLASSIC("classic"),
    CONSUMER("consumer"),
    SHARE("share"),
    STREAMS("streams");

    final String kafkaName;

    GroupType(String kafkaName) {
        this.kafkaName = kafkaName;
    }
}
