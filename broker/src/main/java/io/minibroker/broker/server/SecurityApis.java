package io.minibroker.broker.server;

import io.minibroker.broker.admin.NoAuthorizerHandler;
import io.minibroker.broker.api.ApiHandler;
import io.minibroker.broker.api.SupportedApis;
import io.minibroker.broker.authz.AclApisHandler;
import io.minibroker.broker.authz.AclBinding;
import io.minibroker.broker.authz.StandardAuthorizer;
import io.minibroker.broker.cluster.ControllerForwarder;
import io.minibroker.broker.cluster.ForwardingFailure;
import io.minibroker.broker.config.BrokerConfig;
import io.minibroker.broker.config.SecurityKeys;
import io.minibroker.broker.sasl.AlterUserScramCredentialsHandler;
import io.minibroker.broker.sasl.DescribeUserScramCredentialsHandler;
import io.minibroker.broker.config.Password;
import io.minibroker.broker.security.DelegationToken;
import io.minibroker.broker.security.DelegationTokens;
import io.minibroker.broker.security.ScramCredential;
import io.minibroker.broker.security.ScramCredentials;
import io.minibroker.broker.security.ScramMechanism;
import io.minibroker.broker.token.DelegationTokenApis;
import io.minibroker.broker.token.ExpiredTokens;
import io.minibroker.protocol.message.ApiKey;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.function.LongSupplier;

/**
 * Where a broker keeps its ACLs, SCRAM credentials and delegation tokens, and the APIs that read and change them, in
 * either mode. A single node keeps them in files of its first log directory and changes them itself. In a cluster
 * the controller keeps them (in its directory, {@code .minibroker-controller}), every broker forwards the changes to
 * it and holds a copy in memory that each image it fetches replaces ({@link #replaceAcls}, {@link
 * #replaceCredentials}, {@link #replaceTokens}: only what the image changed, {@link SnapshotChanges}), from which it
 * authorizes, signs SCRAM users and token holders in and answers DescribeAcls, DescribeUserScramCredentials and
 * DescribeDelegationToken.
 */
final class SecurityApis {

    private final StandardAuthorizer authorizer;
    private final ScramCredentials credentials;
    /** A single node's delegation tokens, or a cluster broker's copy of the controller's. */
    private final DelegationTokens tokens;

    private SecurityApis(StandardAuthorizer authorizer, ScramCredentials credentials, DelegationTokens tokens) {
        this.authorizer = authorizer;
        this.credentials = credentials;
        this.tokens = tokens;
    }

    /** This broker's ACLs (none without an authorizer) and credentials: its own files, or a cluster's copy. */
    static SecurityApis open(BrokerConfig config) throws IOException {
        Path logDir = config.logDirs().get(0);
        String superUsers = config.get(SecurityKeys.SUPER_USERS);
        boolean allowEveryone = config.get(SecurityKeys.ALLOW_EVERYONE_IF_NO_ACL_FOUND);
        if (config.inCluster()) {
            return new SecurityApis(config.authorizerEnabled()
                    ? StandardAuthorizer.following(superUsers, allowEveryone) : null, ScramCredentials.following(),
                    DelegationTokens.following(secretKey(config)));
        }
        return new SecurityApis(config.authorizerEnabled()
                ? StandardAuthorizer.open(logDir, superUsers, allowEveryone) : null, ScramCredentials.open(logDir),
                DelegationTokens.open(logDir, secretKey(config)));
    }

    /** {@code delegation.token.secret.key}, null when not set: tokens are off. */
    static String secretKey(BrokerConfig config) {
        Password secretKey = config.get(SecurityKeys.DELEGATION_TOKEN_SECRET_KEY);
        return secretKey == null ? null : secretKey.value();
    }

    /** The ACLs this broker authorizes with; null without an authorizer. */
    StandardAuthorizer authorizer() {
        return authorizer;
    }

    ScramCredentials credentials() {
        return credentials;
    }

    DelegationTokens tokens() {
        return tokens;
    }

    /** A single node's expiry check (a cluster's is the controller's, which its image hands on). */
    void removeExpiredTokens(long nowMs) {
        ExpiredTokens.remove(tokens, nowMs, () -> { });
    }

    /** Adds a single node's delegation token APIs to the table, their times from {@code wallClockMs}. */
    void registerTokens(SupportedApis apis, BrokerConfig config, LongSupplier wallClockMs,
                        Function<ApiHandler, ApiHandler> onDisk) {
        DelegationTokenApis.register(apis, config, tokens, authorizer, wallClockMs, onDisk);
    }

    /** A cluster broker's copy takes the delegation tokens of the image just fetched. */
    void replaceTokens(List<DelegationToken> replacement) {
        tokens.replaceAll(replacement);
    }

    /** A cluster broker's copy takes the ACLs of the image just fetched (nothing to take without an authorizer). */
    void replaceAcls(List<AclBinding> acls) {
        if (authorizer != null) {
            authorizer.replaceAll(acls);
        }
    }

    /** A cluster broker's copy takes the SCRAM credentials of the image just fetched. */
    void replaceCredentials(Map<String, Map<ScramMechanism, ScramCredential>> replacement) {
        credentials.replaceAll(replacement);
    }

    /**
     * Adds the ACL and SCRAM APIs to the table: on a single node over this node's files (changes on the disk
     * thread), in a cluster the changes through {@code controller} (null on a single node).
     */
    void register(SupportedApis apis, ControllerForwarder controller, Function<ApiHandler, ApiHandler> onDisk) {
        if (controller != null) {
            DelegationTokenApis.registerForwarding(apis, tokens, authorizer,
                    api -> controller.handlerFor(api, ForwardingFailure::tokenChange));
        }
        ApiHandler describeAcls;
        ApiHandler changeAcls;
        if (authorizer == null) {
            describeAcls = changeAcls = new NoAuthorizerHandler();
        } else if (controller == null) {
            // Listing reads the immutable index on the event loop; only the changes write the file.
            describeAcls = new AclApisHandler(authorizer);
            changeAcls = onDisk.apply(describeAcls);
        } else {
            ApiHandler create = controller.handlerFor(ApiKey.CREATE_ACLS, ForwardingFailure::createAcls);
            ApiHandler delete = controller.handlerFor(ApiKey.DELETE_ACLS, ForwardingFailure::deleteAcls);
            describeAcls = changeAcls = AclApisHandler.forwarding(authorizer, (context, request) ->
                    (request.api() == ApiKey.CREATE_ACLS ? create : delete).handle(context, request));
        }
        apis.add(ApiKey.DESCRIBE_ACLS, describeAcls)
                .add(ApiKey.CREATE_ACLS, changeAcls)
                .add(ApiKey.DELETE_ACLS, changeAcls)
                .add(ApiKey.DESCRIBE_USER_SCRAM_CREDENTIALS, new DescribeUserScramCredentialsHandler(credentials))
                .add(ApiKey.ALTER_USER_SCRAM_CREDENTIALS, controller == null
                        ? onDisk.apply(new AlterUserScramCredentialsHandler(credentials))
                        : controller.handlerFor(ApiKey.ALTER_USER_SCRAM_CREDENTIALS,
                                ForwardingFailure::alterUserScramCredentials));
    }
}
