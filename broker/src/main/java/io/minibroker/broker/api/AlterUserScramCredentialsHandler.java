package io.minibroker.broker.api;

import io.minibroker.broker.security.ScramCredentials;
import io.minibroker.broker.security.ScramMechanism;
import io.minibroker.protocol.error.Errors;
import io.minibroker.protocol.message.ApiKey;
import io.minibroker.protocol.message.Request;
import io.minibroker.protocol.schema.Struct;

import java.io.IOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;

/**
 * AlterUserScramCredentials ({@code kafka-configs --alter --entity-type users --add-config 'SCRAM-SHA-256=[...]'},
 * {@code Admin.alterUserScramCredentials}): upserts take the client's salt, salted password and iteration count
 * (the password itself never reaches the broker), deletions remove one mechanism's credential. Checked as Kafka's
 * controller checks them, one result per user: an empty name or an iteration count outside 4096-16384 is
 * UNACCEPTABLE_CREDENTIAL, an unknown mechanism UNSUPPORTED_SASL_MECHANISM, a user altered twice in one request
 * DUPLICATE_RESOURCE, a deletion of a credential that does not exist RESOURCE_NOT_FOUND. The changes that pass are
 * saved together (fsync) before the answer; runs on the disk thread.
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

    @Override
    public CompletionStage<Struct> handle(RequestContext context, Request request) {
        List<Alteration> alterations = new ArrayList<>();
        for (Struct deletion : request.body().getStructs("Deletions")) {
            alterations.add(new Alteration(deletion.getString("Name"), deletion.getInt8("Mechanism"), 0, null, null));
        }
        for (Struct upsertion : request.body().getStructs("Upsertions")) {
            alterations.add(new Alteration(upsertion.getString("Name"), upsertion.getInt8("Mechanism"),
                    upsertion.getInt32("Iterations"), upsertion.getBytes("Salt"), upsertion.getBytes("SaltedPassword")));
        }
        Map<String, Integer> perUser = new HashMap<>();
        alterations.forEach(a -> perUser.merge(a.user(), 1, Integer::sum));
        Map<String, Result> results = new LinkedHashMap<>();
        List<ScramCredentials.Change> changes = new ArrayList<>();
        for (Alteration alteration : alterations) {
            String user = alteration.user();
            if (results.containsKey(user)) {
                continue; // a user altered twice has its one result already
            }
            ScramMechanism mechanism = ScramMechanism.byType(alteration.type());
            String refusal;
            Errors error;
            if (perUser.get(user) > 1) {
                error = Errors.DUPLICATE_RESOURCE;
                refusal = "A user credential cannot be altered twice in the same request";
            } else if (user.isEmpty()) {
                error = Errors.UNACCEPTABLE_CREDENTIAL;
                refusal = "Username must not be empty";
            } else if (mechanism == null) {
                error = Errors.UNSUPPORTED_SASL_MECHANISM;
                refusal = "Unknown SCRAM mechanism";
            } else if (alteration.salt() == null && !credentials.has(user, mechanism)) {
                error = Errors.RESOURCE_NOT_FOUND;
                refusal = "Attempt to delete a user credential that does not exist";
            } else if (alteration.salt() != null && alteration.iterations() < ScramMechanism.MIN_ITERATIONS) {
                error = Errors.UNACCEPTABLE_CREDENTIAL;
                refusal = "Too few iterations";
            } else if (alteration.salt() != null && alteration.iterations() > ScramMechanism.MAX_ITERATIONS) {
                error = Errors.UNACCEPTABLE_CREDENTIAL;
                refusal = "Too many iterations";
            } else {
                error = Errors.NONE;
                refusal = null;
                changes.add(new ScramCredentials.Change(user, mechanism, alteration.salt() == null ? null
                        : mechanism.credential(alteration.salt(), alteration.saltedPassword(), alteration.iterations())));
            }
            results.put(user, new Result(error, refusal));
        }
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
        Struct response = ApiKey.ALTER_USER_SCRAM_CREDENTIALS.response().newMessage();
        results.forEach((user, result) -> response.addElement("Results").set("User", user)
                .set("ErrorCode", result.error().code()).set("ErrorMessage", result.message()));
        return CompletableFuture.completedFuture(response);
    }
}
