package io.minibroker.protocol.message;

import static io.minibroker.protocol.schema.SchemaDsl.*;

import io.minibroker.protocol.schema.MessageSchema;

/** DescribeUserScramCredentials (API key 50): request and response bodies, transcribed from the Kafka protocol specification. */
final class DescribeUserScramCredentialsMessages {
    static final MessageSchema REQUEST = message("DescribeUserScramCredentialsRequest", "0", "0+",
            field("Users", array(struct("UserName",
                    field("Name", STRING, "0+"))), "0+").nullable("0+"));

    static final MessageSchema RESPONSE = message("DescribeUserScramCredentialsResponse", "0", "0+",
            field("ThrottleTimeMs", INT32, "0+"),
            field("ErrorCode", INT16, "0+"),
            field("ErrorMessage", STRING, "0+").nullable("0+"),
            field("Results", array(struct("DescribeUserScramCredentialsResult",
                    field("User", STRING, "0+"),
                    field("ErrorCode", INT16, "0+"),
                    field("ErrorMessage", STRING, "0+").nullable("0+"),
                    field("CredentialInfos", array(struct("CredentialInfo",
                            field("Mechanism", INT8, "0+"),
                            field("Iterations", INT32, "0+"))), "0+"))), "0+"));

    private DescribeUserScramCredentialsMessages() {
    }
}
