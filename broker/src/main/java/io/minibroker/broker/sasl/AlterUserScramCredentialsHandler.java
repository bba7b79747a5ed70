package io.minibroker.broker.sasl;

import io.minibroker.broker.api.ApiHandler;
import io.minibroker.broker.api.RequestContext;
import io.minibroker.broker.security.ScramCredentials;
import io.minibroker.broker.security.ScramMechanism;
import io.minibroker.protocol.error.Errors;
import io.minibroker.protocol.message.Request;
import io.minibroker.protocol.message.view.AlterUserScramCredentialsRequestView;
import io.minibroker.protocol.message.view.AlterUserScramCredentialsRequestView.ScramCredentialDeletion;
import io.minibroker.protocol.message.view.AlterUserScramCredentialsRequestView.ScramCredentialUpsertion;
import io.minibroker.protocol.message.view.AlterUserScramCredentialsResponseView;
import io.minibroker.protocol.schema.Struct;

import java.io.IOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;

/**
 * AlterUserScramCredentials ({@code kafka-configs --alter --entity-type users --add-config 'SCRAM-SHA-256=[...]'},
 * {@code Admin.alterUserScramCredentials}): upserts take the client's salt, salted password and iteration count
 * (the password itself never reaches the broker), deletions remove one mechanism's credential. Checked as Kafka's
 * controller checks them, one result per user: a user's first refused alteration gives its result, a second
 * alteration of a user whose first passed is DUPLICATE_RESOURCE; an empty name or an iteration count outside
 * 4096-16384 is UNACCEPTABLE_CREDENTIAL, an unknown mechanism UNSUPPORTED_SASL_MECHANISM, a deletion of a credential that does not exist RESOURCE_NOT_FOUND, a credential that
 * cannot be made (an empty salted password) UNKNOWN_SERVER_ERROR. The changes that pass are saved together (fsync)
 * before the answer; runs on the disk thread.
 */
public final class AlterUserScramCredentialsHandler implements ApiHandler {

    private final ScramCredentials credentials;

    public AlterUserScramCredentialsHandler(ScramCredentials credentials) {
        this.credentials = credentials;
    }

    /** One requested alteration; {@code salt} null for a deletion. */
    private record Alteration(String user, byte type, int iterations, byte[] salt, byte[] saltedPassword) {
    }

    private record Result(Errors error, String message) {
    }

    /**
     * Why one alteration is refused, in the order Kafka's KRaft controller checks it (ScramControlManager's
     * validateDeletion and validateUpsertion), or null.
     */
    private Result refusal(Alteration alteration) {
        ScramMechanism mechanism = ScramMechanism.byType(alteration.type());
        boolean upsert = alteration.salt() != null;
        if (alteration.user().isEmpty()) {
            return new Result(Errors.UNACCEPTABLE_CREDENTIAL, "Username must not be empty");
        } else if (mechanism == null) {
            return new Result(Errors.UNSUPPORTED_SASL_MECHANISM, "Unknown SCRAM mechanism");
        } else if (upsert && alteration.iterations() < ScramMechanism.MIN_ITERATIONS) {
            return new Result(Errors.UNACCEPTABLE_CREDENTIAL, "Too few iterations");
        } else if (upsert && alteration.iterations() > ScramMechanism.MAX_ITERATIONS) {
            return new Result(Errors.UNACCEPTABLE_CREDENTIAL, "Too many iterations");
        } else if (!upsert && !credentials.has(alteration.user(), mechanism)) {
            return new Result(Errors.RESOURCE_NOT_FOUND, "Attempt to delete a user credential that does not exist");
        }
        return null;
    }

    @Override
    public CompletionStage<Struct> handle(RequestContext context, Request request) {
        AlterUserScramCredentialsRequestView alter = new AlterUserScramCredentialsRequestView(request.body());
        List<Alteration> alterations = new ArrayList<>();
        for (ScramCredentialDeletion deletion : alter.deletions()) {
            alterations.add(new Alteration(deletion.name(), deletion.mechanism(), 0, null, null));
        }
        for (ScramCredentialUpsertion upsertion : alter.upsertions()) {
            alterations.add(new Alteration(upsertion.name(), upsertion.mechanism(),
                    upsertion.iterations(), upsertion.salt(), upsertion.saltedPassword()));
        }
        // As Kafka's controller, deletions then upsertions, each user's first refusal final: a user's later
        // alterations are not looked at once one is refused, and a second alteration of a user whose first passed
        // is DUPLICATE_RESOURCE for that user (whatever the mechanisms: Kafka 4.3.1 refuses kafka-configs adding
        // SCRAM-SHA-256 and SCRAM-SHA-512 at once, too).
        Map<String, Alteration> passed = new LinkedHashMap<>();
        Map<String, Result> results = new LinkedHashMap<>();
        for (Alteration alteration : alterations) {
            String user = alteration.user();
            if (results.containsKey(user)) {
                continue;
            }
            Result refused = passed.remove(user) != null ? new Result(Errors.DUPLICATE_RESOURCE,
                    "A user credential cannot be altered twice in the same request") : refusal(alteration);
            if (refused != null) {
                results.put(user, refused);
            } else {
                passed.put(user, alteration);
            }
        }
        List<ScramCredentials.Change> changes = new ArrayList<>();
        passed.forEach((user, alteration) -> {
            ScramMechanism mechanism = ScramMechanism.byType(alteration.type());
            try {
                changes.add(new ScramCredentials.Change(user, mechanism, alteration.salt() == null ? null
                        : mechanism.credential(alteration.salt(), alteration.saltedPassword(), alteration.iterations())));
                results.put(user, new Result(Errors.NONE, null));
            } catch (RuntimeException e) { // an empty salted password makes no HMAC key: this user fails, as in Kafka
                // whose ApiError sends no message with UNKNOWN_SERVER_ERROR, lest it leak internals
                results.put(user, new Result(Errors.UNKNOWN_SERVER_ERROR, null));
            }
        });
        if (!changes.isEmpty()) {
            try {
                credentials.apply(changes);
            } catch (IOException e) {
                for (ScramCredentials.Change change : changes) {
                    results.put(change.user(), new Result(Errors.KAFKA_STORAGE_ERROR,
                            "could not save the credentials: " + e.getMessage()));
                }
            }
        }
        AlterUserScramCredentialsResponseView response = new AlterUserScramCredentialsResponseView();
        results.forEach((user, result) -> response.addResult().user(user)
                .errorCode(result.error().code()).errorMessage(result.message()));
        return CompletableFuture.completedFuture(response.struct());
    }
}
