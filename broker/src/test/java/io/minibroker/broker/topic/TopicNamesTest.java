package io.minibroker.broker.topic;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/** Kafka's four rules for topic names, each in the two wordings Kafka answers with, and a legal name in neither. */
class TopicNamesTest {

    private static final String LONG = "t".repeat(250);

    @Test
    void eachRuleInTheWordsOfTopicCreation() {
        assertThat(TopicRegistry.invalidName("")).isEqualTo("Topic name is illegal, it can't be empty");
        assertThat(TopicRegistry.invalidName("..")).isEqualTo("Topic name cannot be \".\" or \"..\"");
        assertThat(TopicRegistry.invalidName(LONG))
                .isEqualTo("Topic name is illegal, it can't be longer than 249 characters, topic name: " + LONG);
        assertThat(TopicRegistry.invalidName("a b")).isEqualTo("Topic name \"a b\" is illegal, it contains a"
                + " character other than ASCII alphanumerics, '.', '_' and '-'");
        assertThat(TopicRegistry.invalidName("orders.v1_x-2")).isNull();
    }

    @Test
    void eachRuleInTheWordsOfTopicValidate() {
        assertThat(TopicRegistry.invalidNameAsValidated(""))
                .isEqualTo("Topic name is invalid: the empty string is not allowed");
        assertThat(TopicRegistry.invalidNameAsValidated(".")).isEqualTo("Topic name is invalid: '.' is not allowed");
        assertThat(TopicRegistry.invalidNameAsValidated(LONG)).isEqualTo("Topic name is invalid: the length of '"
                + LONG + "' is longer than the max allowed length 249");
        assertThat(TopicRegistry.invalidNameAsValidated("a b")).isEqualTo("Topic name is invalid: 'a b' contains one"
                + " or more characters other than ASCII alphanumerics, '.', '_' and '-'");
        assertThat(TopicRegistry.invalidNameAsValidated("orders.v1_x-2")).isNull();
    }
}
