package io.minibroker.protocol.schema;

import static io.minibroker.protocol.schema.SchemaDsl.INT32;
import static io.minibroker.protocol.schema.SchemaDsl.STRING;
import static io.minibroker.protocol.schema.SchemaDsl.array;
import static io.minibroker.protocol.schema.SchemaDsl.field;
import static io.minibroker.protocol.schema.SchemaDsl.message;
import static io.minibroker.protocol.schema.SchemaDsl.struct;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.minibroker.protocol.error.ProtocolException;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.Unpooled;
import org.junit.jupiter.api.Test;

/** The interpreter's own rules, on a small schema written for the purpose. */
class StructTest {
    private static final MessageSchema SAMPLE = message("Sample", "0-3", "2+",
            field("Id", INT32, "0+").defaultsTo(-1),
            field("Name", STRING, "1+").nullable("1+").defaultNull(),
            field("Tags", array(struct("Tag", field("Key", STRING, "0+"))), "0+"),
            field("Hint", INT32, "2+").tagged(5, "2+").defaultsTo(7),
            field("Note", STRING, "3+").tagged(1, "3+"));

    @Test
    void absentFieldsReadAsTheirDefaults() {
        Struct decoded = SAMPLE.read(Unpooled.wrappedBuffer(new byte[] {0, 0, 0, 9, 0, 0, 0, 0}), (short) 0);
        assertThat(decoded.getInt32("Id")).isEqualTo(9);
        assertThat(decoded.getString("Name")).isNull();
        assertThat(decoded.getInt32("Hint")).isEqualTo(7);
        assertThat(decoded.getString("Note")).isEmpty();
    }

    @Test
    void taggedFieldsAtTheirDefaultAreLeftOutAndOthersWrittenInTagOrder() {
        Struct message = SAMPLE.newMessage().set("Id", 1).set("Name", "n");
        assertThat(hex(message, (short) 3)).isEqualTo("00000001" + "026e" + "01" + "00");
        message.set("Hint", 8).set("Note", "x");
        // Two tagged fields, tag 1 ("x", compact) before tag 5 (int32 8), though declared the other way.
        assertThat(hex(message, (short) 3)).isEqualTo("00000001" + "026e" + "01" + "02" + "01" + "02" + "0278" + "05" + "04" + "00000008");
    }

    @Test
    void valuesOfTheWrongClassAreRefusedWhenSet() {
        Struct message = SAMPLE.newMessage();
        assertThatThrownBy(() -> message.set("Id", 1L)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> message.set("Nope", 1)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> message.addElement("Id")).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void nullIsRefusedWhereTheVersionDoesNotAllowIt() {
        Struct message = SAMPLE.newMessage().set("Tags", null);
        assertThatThrownBy(() -> SAMPLE.write(Unpooled.buffer(), message, (short) 2)).isInstanceOf(ProtocolException.class);
        message.set("Tags", new java.util.ArrayList<>()).set("Name", null);
        assertThat(hex(message, (short) 1)).isEqualTo("ffffffff" + "ffff" + "00000000");
    }

    @Test
    void unknownTagsSurviveARoundTrip() {
        ByteBuf in = Unpooled.wrappedBuffer(ByteBufUtil.decodeHexDump("00000001" + "00" + "01" + "02" + "09" + "01" + "ab" + "05" + "04" + "00000008"));
        Struct decoded = SAMPLE.read(in, (short) 2);
        assertThat(decoded.unknownTags()).containsExactly(new RawTaggedField(9, new byte[] {(byte) 0xab}));
        assertThat(decoded.getInt32("Hint")).isEqualTo(8);
        assertThat(hex(decoded, (short) 2)).isEqualTo("00000001" + "00" + "01" + "02" + "05" + "04" + "00000008" + "09" + "01" + "ab");
    }

    private static String hex(Struct message, short version) {
        ByteBuf out = Unpooled.buffer();
        SAMPLE.write(out, message, version);
        assertThat(out.readableBytes()).isEqualTo(SAMPLE.sizeOf(message, version));
        return ByteBufUtil.hexDump(out);
    }
}
