package io.minibroker.broker.server;

import io.minibroker.broker.admin.NoAuthorizerHandler;
import io.minibroker.broker.api.ApiHandler;
import io.minibroker.broker.api.SupportedApis;
import io.minibroker.broker.authz.AclApisHandler;
import io.minibroker.broker.authz.AclBinding;
import io.minibroker.broker.authz.StandardAuthorizer;
import io.minibroker.broker.cluster.ControllerForwarder;
import io.minibroker.broker.cluster.ControllerUnreachable;
import io.minibroker.broker.config.BrokerConfig;
import io.minibroker.broker.config.SecurityKeys;
import io.minibroker.broker.sasl.AlterUserScramCredentialsHandler;
import io.minibroker.broker.sasl.DescribeUserScramCredentialsHandler;
import io.minibroker.broker.security.ScramCredential;
import io.minibroker.broker.security.ScramCredentials;
import io.minibroker.broker.security.ScramMechanism;
import io.minibroker.protocol.message.ApiKey;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

/**
 * Where a broker keeps its ACLs and SCRAM credentials, and the APIs that read and change them, in either mode. A
 * single node keeps both in files of its first log directory and changes them itself. In a cluster the controller
 * keeps them (in its directory, {@code .minibroker-controller}), every broker forwards the changes to it and holds
 * a copy in memory that each image it fetches replaces ({@link #replaceAcls}, {@link #replaceCredentials}: only
 * what the image changed, {@link SnapshotChanges}), from which it authorizes, signs SCRAM
 * users in and answers DescribeAcls and DescribeUserScramCredentials.
 */
final class SecurityApis {

    private final StandardAuthorizer authorizer;
    private final ScramCredentials credentials;

    private SecurityApis(StandardAuthorizer authorizer, ScramCredentials credentials) {
        this.authorizer = authorizer;
        this.credentials = credentials;
    }

    /** This broker's ACLs (none without an authorizer) and credentials: its own files, or a cluster's copy. */
    static SecurityApis open(BrokerConfig config) throws IOException {
        Path logDir = config.logDirs().get(0);
        String superUsers = config.get(SecurityKeys.SUPER_USERS);
        boolean allowEveryone = config.get(SecurityKeys.ALLOW_EVERYONE_IF_NO_ACL_FOUND);
        if (config.inCluster()) {
            return new SecurityApis(config.authorizerEnabled()
                    ? StandardAuthorizer.following(superUsers, allowEveryone) : null, ScramCredentials.following());
        }
        return new SecurityApis(config.authorizerEnabled()
                ? StandardAuthorizer.open(logDir, superUsers, allowEveryone) : null, ScramCredentials.open(logDir));
    }

    /** The ACLs this broker authorizes with; null without an authorizer. */
    StandardAuthorizer authorizer() {
        return authorizer;
    }

    ScramCredentials credentials() {
        return credentials;
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
            ApiHandler create = controller.handlerFor(ApiKey.CREATE_ACLS, ControllerUnreachable::createAcls);
            ApiHandler delete = controller.handlerFor(ApiKey.DELETE_ACLS, ControllerUnreachable::deleteAcls);
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
                                ControllerUnreachable::alterUserScramCredentials));
    }
}
