package io.minibroker.broker.group;

import io.netty.buffer.Unpooled;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayOutputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The group metadata record's bytes, field by field in the order of Kafka's GroupMetadataKey.json and
 * GroupMetadataValue.json (v3: not flexible, int16-length strings, -1 for a null one, int32-length bytes, int32
 * array counts).
 */
class GroupMetadataRecordTest {

    private static final GroupMetadataRecord.StoredGroup GROUP = new GroupMetadataRecord.StoredGroup(
            "consumer", 5, "range", "m-1", 1_700_000_000_123L, List.of(
                    new GroupMetadataRecord.StoredMember("m-1", null, "client", "/10.0.0.1", 300_000, 45_000,
                            new byte[]{1, 2}, new byte[]{3}),
                    new GroupMetadataRecord.StoredMember("m-2", "instance-2", "c2", "/h", 60_000, 10_000,
                            new byte[0], new byte[]{4, 5, 6})));

    @Test
    void theKeyIsVersionTwoThenTheGroupId() throws IOException {
        ByteArrayOutputStream expected = new ByteArrayOutputStream();
        DataOutputStream out = new DataOutputStream(expected);
        out.writeShort(2);          // key version: group metadata
        writeString(out, "orders"); // group

        assertThat(GroupMetadataRecord.key("orders")).containsExactly(expected.toByteArray());
    }

    @Test
    void theValueIsVersionThreeInTheSpecsFieldOrder() throws IOException {
        ByteArrayOutputStream expected = new ByteArrayOutputStream();
        DataOutputStream out = new DataOutputStream(expected);
        out.writeShort(3);                   // value version
        writeString(out, "consumer");        // protocolType
        out.writeInt(5);                     // generation
        writeString(out, "range");           // protocol
        writeString(out, "m-1");             // leader
        out.writeLong(1_700_000_000_123L);   // currentStateTimestamp
        out.writeInt(2);                     // members
        writeString(out, "m-1");             //   memberId
        out.writeShort(-1);                  //   groupInstanceId: null
        writeString(out, "client");          //   clientId
        writeString(out, "/10.0.0.1");       //   clientHost
        out.writeInt(300_000);               //   rebalanceTimeout
        out.writeInt(45_000);                //   sessionTimeout
        out.writeInt(2);                     //   subscription
        out.write(new byte[]{1, 2});
        out.writeInt(1);                     //   assignment
        out.write(new byte[]{3});
        writeString(out, "m-2");
        writeString(out, "instance-2");
        writeString(out, "c2");
        writeString(out, "/h");
        out.writeInt(60_000);
        out.writeInt(10_000);
        out.writeInt(0);
        out.writeInt(3);
        out.write(new byte[]{4, 5, 6});

        assertThat(GroupMetadataRecord.value(GROUP)).containsExactly(expected.toByteArray());
    }

    @Test
    void aValueReadsBackAsWritten() {
        GroupMetadataRecord.StoredGroup read =
                GroupMetadataRecord.readValue(Unpooled.wrappedBuffer(GroupMetadataRecord.value(GROUP)));

        assertThat(read).usingRecursiveComparison().isEqualTo(GROUP);
    }

    @Test
    void anEmptyGroupHasNoProtocolLeaderOrMembers() {
        GroupMetadataRecord.StoredGroup empty =
                new GroupMetadataRecord.StoredGroup("consumer", 6, null, null, 42L, List.of());

        byte[] value = GroupMetadataRecord.value(empty);

        assertThat(value).hasSize(2 + 2 + 8 + 4 + 2 + 2 + 8 + 4);
        assertThat(GroupMetadataRecord.readValue(Unpooled.wrappedBuffer(value)))
                .usingRecursiveComparison().isEqualTo(empty);
    }

    private static void writeString(DataOutputStream out, String value) throws IOException {
        byte[] utf8 = value.getBytes(StandardCharsets.UTF_8);
        out.writeShort(utf8.length);
        out.write(utf8);
    }
}
