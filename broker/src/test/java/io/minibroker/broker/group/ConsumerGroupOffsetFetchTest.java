package io.minibroker.broker.group;

import io.minibroker.protocol.error.Errors;
import org.junit.jupiter.api.Test;

import java.util.LinkedHashMap;

import static org.assertj.core.api.Assertions.assertThat;

/** Kafka's ConsumerGroup.validateOffsetFetch: who may fetch a consumer group's offsets at which epoch (v9+). */
class ConsumerGroupOffsetFetchTest {

    private final ConsumerGroup group = new ConsumerGroup("g");

    @Test
    void onlyAFetchNamingNoMemberSkipsTheCheck() {
        group.add(member("consumer", 3, false));

        assertThat(group.validateOffsetFetch(null, -1)).as("an admin client").isEqualTo(Errors.NONE);
        assertThat(group.validateOffsetFetch("stranger", -1)).isEqualTo(Errors.UNKNOWN_MEMBER_ID);
        assertThat(group.validateOffsetFetch("consumer", -1)).isEqualTo(Errors.STALE_MEMBER_EPOCH);
        assertThat(group.validateOffsetFetch("consumer", 3)).isEqualTo(Errors.NONE);
    }

    @Test
    void aClassicProtocolMemberAtAnotherGenerationIsToldIllegalGeneration() {
        group.add(member("classic", 3, true));

        assertThat(group.validateOffsetFetch("classic", 2)).isEqualTo(Errors.ILLEGAL_GENERATION);
        assertThat(group.validateOffsetFetch("classic", 3)).isEqualTo(Errors.NONE);
    }

    private static ConsumerGroupMember member(String memberId, int epoch, boolean classic) {
        ConsumerGroupMember member = new ConsumerGroupMember(memberId);
        member.memberEpoch = epoch;
        if (classic) {
            member.classic = new ConsumerGroupMember.ClassicMetadata(10_000, new LinkedHashMap<>());
        }
        return member;
    }
}
