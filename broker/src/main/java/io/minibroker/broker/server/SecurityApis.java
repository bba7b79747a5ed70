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
import io.minibroker.broker.security.DelegationTokens;
import io.minibroker.broker.security.ScramCredential;
import io.minibroker.broker.security.ScramCredentials;
import io.minibroker.broker.security.ScramMechanism;
import io.minibroker.broker.token.DelegationTokenApis;
import io.minibroker.protocol.message.ApiKey;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.function.LongSupplier;

/**
 * Where a broker keeps its ACLs and SCRAM credentials, and the APIs that read and change them, in either mode. A
 * single node keeps both in files of its first log directory and changes them itself. In a cluster the controller
 * keeps them (in its directory, {@code .minibroker-controller}), every broker forwards the changes to it and holds
 * a copy in memory that each image it fetches replaces ({@link #replaceAcls}, {@link #replaceCredentials}: only
 * what the image changed, {@link SnapshotChanges}), from which it authorizes, signs SCRAM
 * users in and answers DescribeAcls and DescribeUserScramCredentials.
 */
final class SecurityApis {

    private static final Logger LOG = LoggerFactory.getLogger(SecurityApis.class);

    private final StandardAuthorizer authorizer;
    private final ScramCredentials credentials;
    /** A single node's delegation tokens; none (and the APIs not offered) in a cluster, for now. */
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
            if (config.get(SecurityKeys.DELEGATION_TOKEN_SECRET_KEY) != null) {
                // Kafka would offer tokens here; this broker does not, so the key it was given must not go unsaid.
                LOG.warn("Ignoring {}: delegation tokens are offered on a single node only, not in a cluster",
                        SecurityKeys.DELEGATION_TOKEN_SECRET_KEY.name());
            }
            return new SecurityApis(config.authorizerEnabled()
                    ? StandardAuthorizer.following(superUsers, allowEveryone) : null, ScramCredentials.following(),
                    DelegationTokens.disabled());
        }
        Password secretKey = config.get(SecurityKeys.DELEGATION_TOKEN_SECRET_KEY);
        return new SecurityApis(config.authorizerEnabled()
                ? StandardAuthorizer.open(logDir, superUsers, allowEveryone) : null, ScramCredentials.open(logDir),
                DelegationTokens.open(logDir, secretKey == null ? null : secretKey.value()));
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

    /**
     * Kafka's expiry check, every {@code delegation.token.expiry.check.interval.ms}: removes the tokens expired by
     * now, after which they no longer sign anyone in.
     */
    void removeExpiredTokens(long nowMs) {
        try {
            int removed = tokens.removeExpired(nowMs);
            if (removed > 0) {
                LOG.info("Removed {} expired delegation tokens", removed);
            }
        } catch (IOException e) {
            LOG.error("Could not save the delegation tokens after removing the expired ones; retried at the next"
                    + " check", e);
        }
    }

    /** Adds a single node's delegation token APIs to the table, their times from {@code wallClockMs}. */
    void registerTokens(SupportedApis apis, BrokerConfig config, LongSupplier wallClockMs,
                        Function<ApiHandler, ApiHandler> onDisk) {
        DelegationTokenApis.register(apis, config, tokens, authorizer, wallClockMs, onDisk);
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
