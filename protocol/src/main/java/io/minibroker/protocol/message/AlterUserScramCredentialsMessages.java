package io.minibroker.protocol.message;

import static io.minibroker.protocol.schema.SchemaDsl.*;

import io.minibroker.protocol.schema.MessageSchema;

/** AlterUserScramCredentials (API key 51): request and response bodies, transcribed from the Kafka protocol specification. */
final class AlterUserScramCredentialsMessages {
    static final MessageSchema REQUEST = message("AlterUserScramCredentialsRequest", "0", "0+",
            field("Deletions", array(struct("ScramCredentialDeletion",
                    field("Name", STRING, "0+"),
                    field("Mechanism", INT8, "0+"))), "0+"),
            field("Upsertions", array(struct("ScramCredentialUpsertion",
                    field("Name", STRING, "0+"),
                    field("Mechanism", INT8, "0+"),
                    field("Iterations", INT32, "0+"),
                    field("Salt", BYTES, "0+"),
                    field("SaltedPassword", BYTES, "0+"))), "0+"));

    static final MessageSchema RESPONSE = message("AlterUserScramCredentialsResponse", "0", "0+",
            field("ThrottleTimeMs", INT32, "0+"),
            field("Results", array(struct("AlterUserScramCredentialsResult",
                    field("User", STRING, "0+"),
                    field("ErrorCode", INT16, "0+"),
                    field("ErrorMessage", STRING, "0+").nullable("0+"))), "0+"));

    private AlterUserScramCredentialsMessages() {
    }
}
