package io.minibroker.protocol.message;

import static io.minibroker.protocol.schema.SchemaDsl.*;

import io.minibroker.protocol.schema.MessageSchema;

/** DescribeConfigs (API key 32): request and response bodies, transcribed from the Kafka protocol specification. */
final class DescribeConfigsMessages {
    static final MessageSchema REQUEST = message("DescribeConfigsRequest", "1-4", "4+",
            field("Resources", array(struct("DescribeConfigsResource",
                    field("ResourceType", INT8, "0+"),
                    field("ResourceName", STRING, "0+"),
                    field("ConfigurationKeys", array(STRING), "0+").nullable("0+"))), "0+"),
            field("IncludeSynonyms", BOOL, "1+").defaultsTo(false),
            field("IncludeDocumentation", BOOL, "3+").defaultsTo(false));

    static final MessageSchema RESPONSE = message("DescribeConfigsResponse", "1-4", "4+",
            field("ThrottleTimeMs", INT32, "0+"),
            field("Results", array(struct("DescribeConfigsResult",
                    field("ErrorCode", INT16, "0+"),
                    field("ErrorMessage", STRING, "0+").nullable("0+"),
                    field("ResourceType", INT8, "0+"),
                    field("ResourceName", STRING, "0+"),
                    field("Configs", array(struct("DescribeConfigsResourceResult",
                            field("Name", STRING, "0+"),
                            field("Value", STRING, "0+").nullable("0+"),
                            field("ReadOnly", BOOL, "0+"),
                            field("ConfigSource", INT8, "1+").defaultsTo(-1),
                            field("IsSensitive", BOOL, "0+"),
                            field("Synonyms", array(struct("DescribeConfigsSynonym",
                                    field("Name", STRING, "1+"),
                                    field("Value", STRING, "1+").nullable("0+"),
                                    field("Source", INT8, "1+"))), "1+"),
                            field("ConfigType", INT8, "3+").defaultsTo(0),
                            field("Documentation", STRING, "3+").nullable("0+"))), "0+"))), "0+"));

    private DescribeConfigsMessages() {
    }
}
