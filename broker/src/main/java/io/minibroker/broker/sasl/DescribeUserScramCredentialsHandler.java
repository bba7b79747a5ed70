package io.minibroker.broker.sasl;

import io.minibroker.broker.api.ApiHandler;
import io.minibroker.broker.api.RequestContext;
import io.minibroker.broker.security.ScramCredentials;
import io.minibroker.broker.security.ScramMechanism;
import io.minibroker.protocol.error.Errors;
import io.minibroker.protocol.message.Request;
import io.minibroker.protocol.message.view.DescribeUserScramCredentialsRequestView;
import io.minibroker.protocol.message.view.DescribeUserScramCredentialsRequestView.UserName;
import io.minibroker.protocol.message.view.DescribeUserScramCredentialsResponseView;
import io.minibroker.protocol.message.view.DescribeUserScramCredentialsResponseView.DescribeUserScramCredentialsResult;
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
        DescribeUserScramCredentialsResponseView response = new DescribeUserScramCredentialsResponseView()
                .errorCode(Errors.NONE.code());
        Map<String, Map<ScramMechanism, Integer>> described = credentials.describe();
        List<UserName> named = new DescribeUserScramCredentialsRequestView(request.body()).users();
        if (named == null || named.isEmpty()) {
            described.forEach((user, mechanisms) -> addUser(response, user, mechanisms));
            return CompletableFuture.completedFuture(response.struct());
        }
        Set<String> seen = new HashSet<>();
        Set<String> twice = new HashSet<>();
        named.forEach(user -> {
            if (!seen.add(user.name())) {
                twice.add(user.name());
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
        return CompletableFuture.completedFuture(response.struct());
    }

    private static void addUser(DescribeUserScramCredentialsResponseView response, String user,
                                Map<ScramMechanism, Integer> mechanisms) {
        DescribeUserScramCredentialsResult result = response.addResult().user(user).errorCode(Errors.NONE.code());
        mechanisms.forEach((mechanism, iterations) -> result.addCredentialInfo()
                .mechanism(mechanism.type()).iterations(iterations));
    }

    private static void error(DescribeUserScramCredentialsResponseView response, String user, Errors error,
                              String message) {
        response.addResult().user(user).errorCode(error.code()).errorMessage(message);
    }
}
