package io.minibroker.protocol.message;

import static io.minibroker.protocol.schema.SchemaDsl.*;

import io.minibroker.protocol.schema.MessageSchema;

/** DescribeClientQuotas (API key 48): request and response bodies, transcribed from the Kafka protocol specification. */
final class DescribeClientQuotasMessages {
    static final MessageSchema REQUEST = message("DescribeClientQuotasRequest", "0-1", "1+",
            field("Components", array(struct("ComponentData",
                    field("EntityType", STRING, "0+"),
                    field("MatchType", INT8, "0+"),
                    field("Match", STRING, "0+").nullable("0+"))), "0+"),
            field("Strict", BOOL, "0+"));

    static final MessageSchema RESPONSE = message("DescribeClientQuotasResponse", "0-1", "1+",
            field("ThrottleTimeMs", INT32, "0+"),
            field("ErrorCode", INT16, "0+"),
            field("ErrorMessage", STRING, "0+").nullable("0+"),
            field("Entries", array(struct("EntryData",
                    field("Entity", array(struct("EntityData",
                            field("EntityType", STRING, "0+"),
                            field("EntityName", STRING, "0+").nullable("0+"))), "0+"),
                    field("Values", array(struct("ValueData",
                            field("Key", STRING, "0+"),
                            field("Value", FLOAT64, "0+"))), "0+"))), "0+").nullable("0+"));

    private DescribeClientQuotasMessages() {
    }
}
