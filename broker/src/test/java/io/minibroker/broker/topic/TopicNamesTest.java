package io.minibroker.broker.topic;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Kafka's four rules for topic names, each in the words a Kafka 4.3.1 node answered CreateTopics, DescribeConfigs,
 * IncrementalAlterConfigs and DescribeProducers with (compared side by side on 2026-11-29, session 26), and legal
 * names in none.
 */
class TopicNamesTest {

    private static final String LONG = "t".repeat(250);

    @Test
    void eachRuleInKafkasWords() {
        assertThat(TopicRegistry.invalidName("")).isEqualTo("Topic name is invalid: the empty string is not allowed");
        assertThat(TopicRegistry.invalidName(".")).isEqualTo("Topic name is invalid: '.' is not allowed");
        assertThat(TopicRegistry.invalidName("..")).isEqualTo("Topic name is invalid: '..' is not allowed");
        assertThat(TopicRegistry.invalidName(LONG)).isEqualTo("Topic name is invalid: the length of '"
                + LONG + "' is longer than the max allowed length 249");
        assertThat(TopicRegistry.invalidName("a b")).isEqualTo("Topic name is invalid: 'a b' contains one"
                + " or more characters other than ASCII alphanumerics, '.', '_' and '-'");
        assertThat(TopicRegistry.invalidName("orders.v1_x-2")).isNull();
        assertThat(TopicRegistry.invalidName("t".repeat(249))).isNull();
    }
}
