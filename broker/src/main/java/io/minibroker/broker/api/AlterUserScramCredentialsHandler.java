package io.minibroker.broker.api;

import io.minibroker.broker.security.ScramCredentials;
import io.minibroker.broker.security.ScramMechanism;
import io.minibroker.protocol.error.Errors;
import io.minibroker.protocol.message.ApiKey;
import io.minibroker.protocol.message.Request;
import io.minibroker.protocol.schema.Struct;

import java.io.IOException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;

/**
 * AlterUserScramCredentials ({@code kafka-configs --alter --entity-type users --add-config 'SCRAM-SHA-256=[...]'},
 * {@code Admin.alterUserScramCredentials}): upserts take the client's salt, salted password and iteration count
 * (the password itself never reaches the broker), deletions remove one mechanism's credential. Checked as Kafka's
 * controller checks them, one result per user, whose alterations apply whole or not at all: an empty name or an
 * iteration count outside 4096-16384 is UNACCEPTABLE_CREDENTIAL, an unknown mechanism UNSUPPORTED_SASL_MECHANISM,
 * one mechanism of a user altered twice in one request DUPLICATE_RESOURCE, a deletion of a credential that does
 * not exist RESOURCE_NOT_FOUND. The changes that pass are saved together (fsync) before the answer; runs on the
 * disk thread.
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

    /** Why this user's alterations are refused, in the order Kafka checks them; null if they all pass. */
    private Result refusal(String user, List<Alteration> ofUser) {
        if (user.isEmpty()) {
            return new Result(Errors.UNACCEPTABLE_CREDENTIAL, "Username must not be empty");
        }
        Set<ScramMechanism> seen = new HashSet<>();
        for (Alteration alteration : ofUser) {
            ScramMechanism mechanism = ScramMechanism.byType(alteration.type());
            if (mechanism == null) {
                return new Result(Errors.UNSUPPORTED_SASL_MECHANISM, "Unknown SCRAM mechanism");
            }
            boolean upsert = alteration.salt() != null;
            if (upsert && alteration.iterations() < ScramMechanism.MIN_ITERATIONS) {
                return new Result(Errors.UNACCEPTABLE_CREDENTIAL, "Too few iterations");
            }
            if (upsert && alteration.iterations() > ScramMechanism.MAX_ITERATIONS) {
                return new Result(Errors.UNACCEPTABLE_CREDENTIAL, "Too many iterations");
            }
            if (!seen.add(mechanism)) {
                return new Result(Errors.DUPLICATE_RESOURCE,
                        "A user credential cannot be altered twice in the same request");
            }
            if (!upsert && !credentials.has(user, mechanism)) {
                return new Result(Errors.RESOURCE_NOT_FOUND, "Attempt to delete a user credential that does not exist");
            }
        }
        return null;
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
        Map<String, List<Alteration>> byUser = new LinkedHashMap<>();
        alterations.forEach(a -> byUser.computeIfAbsent(a.user(), u -> new ArrayList<>()).add(a));
        Map<String, Result> results = new LinkedHashMap<>();
        List<ScramCredentials.Change> changes = new ArrayList<>();
        byUser.forEach((user, ofUser) -> {
            Result refused = refusal(user, ofUser);
            results.put(user, refused != null ? refused : new Result(Errors.NONE, null));
            if (refused == null) { // a user is altered whole or not at all
                for (Alteration alteration : ofUser) {
                    ScramMechanism mechanism = ScramMechanism.byType(alteration.type());
                    changes.add(new ScramCredentials.Change(user, mechanism, alteration.salt() == null ? null
                            : mechanism.credential(alteration.salt(), alteration.saltedPassword(),
                                    alteration.iterations())));
                }
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
        Struct response = ApiKey.ALTER_USER_SCRAM_CREDENTIALS.response().newMessage();
        results.forEach((user, result) -> response.addElement("Results").set("User", user)
                .set("ErrorCode", result.error().code()).set("ErrorMessage", result.message()));
        return CompletableFuture.completedFuture(response);
    }
}
