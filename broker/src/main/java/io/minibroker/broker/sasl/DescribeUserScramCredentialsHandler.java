package io.minibroker.broker.sasl;

import io.minibroker.broker.api.ApiHandler;
import io.minibroker.broker.api.RequestContext;
import io.minibroker.broker.security.ScramCredentials;
import io.minibroker.broker.security.ScramMechanism;
import io.minibroker.protocol.error.Errors;
import io.minibroker.protocol.message.ApiKey;
import io.minibroker.protocol.message.Request;
import io.minibroker.protocol.schema.Struct;

import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;

/**
 * DescribeUserScramCredentials ({@code kafka-configs --describe --entity-type users}): each user's SCRAM mechanisms
 * and iteration counts, never a salt or a key. No users named (null or none) means every user; a user without
 * credentials is RESOURCE_NOT_FOUND, one named twice DUPLICATE_RESOURCE, as Kafka answers them.
 */
public final class DescribeUserScramCredentialsHandler implements ApiHandler {

    private final ScramCredentials credentials;

    public DescribeUserScramCredentialsHandler(ScramCredentials credentials) {
        this.credentials = credentials;
    }

    @Override
    public CompletionStage<Struct> handle(RequestContext context, Request request) {
        Struct response = ApiKey.DESCRIBE_USER_SCRAM_CREDENTIALS.response().newMessage()
                .set("ErrorCode", Errors.NONE.code());
        Map<String, Map<ScramMechanism, Integer>> described = credentials.describe();
        List<Struct> named = request.body().getStructs("Users");
        if (named == null || named.isEmpty()) {
            described.forEach((user, mechanisms) -> addUser(response, user, mechanisms));
            return CompletableFuture.completedFuture(response);
        }
        Set<String> seen = new HashSet<>();
        Set<String> twice = new HashSet<>();
        named.forEach(user -> {
            if (!seen.add(user.getString("Name"))) {
                twice.add(user.getString("Name"));
            }
        });
        for (String user : seen) {
            if (twice.contains(user)) {
                error(response, user, Errors.DUPLICATE_RESOURCE,
                        "Cannot describe SCRAM credentials for the same user twice in a single request: " + user);
            } else if (!described.containsKey(user)) {
                error(response, user, Errors.RESOURCE_NOT_FOUND,
                        "Attempt to describe a user credential that does not exist: " + user);
            } else {
                addUser(response, user, described.get(user));
            }
        }
        return CompletableFuture.completedFuture(response);
    }

    private static void addUser(Struct response, String user, Map<ScramMechanism, Integer> mechanisms) {
        Struct result = response.addElement("Results").set("User", user).set("ErrorCode", Errors.NONE.code());
        mechanisms.forEach((mechanism, iterations) -> result.addElement("CredentialInfos")
                .set("Mechanism", mechanism.type()).set("Iterations", iterations));
    }

    private static void error(Struct response, String user, Errors error, String message) {
        response.addElement("Results").set("User", user).set("ErrorCode", error.code()).set("ErrorMessage", message);
    }
}
