package io.minibroker.protocol.message;

import static io.minibroker.protocol.schema.SchemaDsl.*;

import io.minibroker.protocol.schema.MessageSchema;

/** IncrementalAlterConfigs (API key 44): request and response bodies, transcribed from the Kafka protocol specification. */
final class IncrementalAlterConfigsMessages {
    static final MessageSchema REQUEST = message("IncrementalAlterConfigsRequest", "0-1", "1+",
            field("Resources", array(struct("AlterConfigsResource",
                    field("ResourceType", INT8, "0+"),
                    field("ResourceName", STRING, "0+"),
                    field("Configs", array(struct("AlterableConfig",
                            field("Name", STRING, "0+"),
                            field("ConfigOperation", INT8, "0+"),
                            field("Value", STRING, "0+").nullable("0+"))), "0+"))), "0+"),
            field("ValidateOnly", BOOL, "0+"));

    static final MessageSchema RESPONSE = message("IncrementalAlterConfigsResponse", "0-1", "1+",
            field("ThrottleTimeMs", INT32, "0+"),
            field("Responses", array(struct("AlterConfigsResourceResponse",
                    field("ErrorCode", INT16, "0+"),
                    field("ErrorMessage", STRING, "0+").nullable("0+"),
                    field("ResourceType", INT8, "0+"),
                    field("ResourceName", STRING, "0+"))), "0+"));

    private IncrementalAlterConfigsMessages() {
    }
}
