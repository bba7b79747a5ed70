package io.minibroker.broker.cluster;

import io.minibroker.broker.admin.AlterClientQuotasHandler;
import io.minibroker.broker.security.KafkaPrincipal;
import io.minibroker.protocol.error.Errors;
import io.minibroker.protocol.message.Request;
import io.minibroker.protocol.message.view.AlterConfigsRequestView;
import io.minibroker.protocol.message.view.AlterUserScramCredentialsRequestView;
import io.minibroker.protocol.message.view.AlterUserScramCredentialsResponseView;
import io.minibroker.protocol.message.view.CreateAclsRequestView;
import io.minibroker.protocol.message.view.CreateAclsResponseView;
import io.minibroker.protocol.message.view.CreateDelegationTokenResponseView;
import io.minibroker.protocol.message.view.ExpireDelegationTokenResponseView;
import io.minibroker.protocol.message.view.RenewDelegationTokenResponseView;
import io.minibroker.protocol.message.view.DeleteAclsRequestView;
import io.minibroker.protocol.message.view.DeleteAclsResponseView;
import io.minibroker.protocol.message.view.AlterConfigsResponseView;
import io.minibroker.protocol.message.view.AlterPartitionReassignmentsRequestView;
import io.minibroker.protocol.message.view.AlterPartitionReassignmentsResponseView;
import io.minibroker.protocol.message.view.CreatePartitionsRequestView;
import io.minibroker.protocol.message.view.CreatePartitionsResponseView;
import io.minibroker.protocol.message.view.CreateTopicsRequestView;
import io.minibroker.protocol.message.view.CreateTopicsResponseView;
import io.minibroker.protocol.message.view.DeleteTopicsRequestView;
import io.minibroker.protocol.message.view.DeleteTopicsResponseView;
import io.minibroker.protocol.message.view.ElectLeadersRequestView;
import io.minibroker.protocol.message.view.ElectLeadersResponseView;
import io.minibroker.protocol.message.view.IncrementalAlterConfigsRequestView;
import io.minibroker.protocol.message.view.IncrementalAlterConfigsResponseView;
import io.minibroker.protocol.message.view.ListPartitionReassignmentsResponseView;
import io.minibroker.protocol.message.view.DescribeQuorumResponseView;
import io.minibroker.protocol.message.view.UnregisterBrokerResponseView;
import io.minibroker.protocol.message.view.UpdateFeaturesResponseView;
import io.minibroker.protocol.schema.Struct;

import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * The answers a broker gives to a forwarded request when the controller cannot be reached: every topic or
 * resource of the request REQUEST_TIMED_OUT, which clients retry, one method per API's response shape.
 */
public final class ControllerUnreachable {

    private static final String MESSAGE = "the controller cannot be reached";
    private static final short TIMED_OUT = Errors.REQUEST_TIMED_OUT.code();

    private ControllerUnreachable() {
    }

    public static Struct createTopics(Request request) {
        CreateTopicsResponseView response = new CreateTopicsResponseView();
        for (CreateTopicsRequestView.CreatableTopic topic : new CreateTopicsRequestView(request.body()).topics()) {
            response.addTopic().name(topic.name()).errorCode(TIMED_OUT).errorMessage(MESSAGE);
        }
        return response.struct();
    }

    public static Struct deleteTopics(Request request) {
        DeleteTopicsRequestView delete = new DeleteTopicsRequestView(request.body());
        DeleteTopicsResponseView response = new DeleteTopicsResponseView();
        if (request.version() < 6) {
            for (String name : delete.topicNames()) {
                response.addResponse().name(name).errorCode(TIMED_OUT);
            }
        } else {
            for (DeleteTopicsRequestView.DeleteTopicState topic : delete.topics()) {
                response.addResponse().name(topic.name()).topicId(topic.topicId())
                        .errorCode(TIMED_OUT).errorMessage(MESSAGE);
            }
        }
        return response.struct();
    }

    /** The whole request's: UpdateFeatures carries no per-feature results with a top-level error. */
    public static Struct updateFeatures(Request request) {
        return new UpdateFeaturesResponseView().errorCode(TIMED_OUT).errorMessage(MESSAGE).struct();
    }

    public static Struct unregisterBroker(Request request) {
        return new UnregisterBrokerResponseView().errorCode(TIMED_OUT).errorMessage(MESSAGE).struct();
    }

    public static Struct describeQuorum(Request request) {
        return new DescribeQuorumResponseView().errorCode(TIMED_OUT).errorMessage(MESSAGE).struct();
    }

    public static Struct createPartitions(Request request) {
        CreatePartitionsResponseView response = new CreatePartitionsResponseView();
        for (CreatePartitionsRequestView.CreatePartitionsTopic topic
                : new CreatePartitionsRequestView(request.body()).topics()) {
            response.addResult().name(topic.name()).errorCode(TIMED_OUT).errorMessage(MESSAGE);
        }
        return response.struct();
    }

    public static Struct alterClientQuotas(Request request) {
        return AlterClientQuotasHandler.refusal(request, Errors.REQUEST_TIMED_OUT, MESSAGE);
    }

    public static Struct alterConfigs(Request request) {
        AlterConfigsResponseView response = new AlterConfigsResponseView();
        for (AlterConfigsRequestView.AlterConfigsResource resource
                : new AlterConfigsRequestView(request.body()).resources()) {
            response.addResponse().resourceType(resource.resourceType()).resourceName(resource.resourceName())
                    .errorCode(TIMED_OUT).errorMessage(MESSAGE);
        }
        return response.struct();
    }

    public static Struct incrementalAlterConfigs(Request request) {
        IncrementalAlterConfigsResponseView response = new IncrementalAlterConfigsResponseView();
        for (IncrementalAlterConfigsRequestView.AlterConfigsResource resource
                : new IncrementalAlterConfigsRequestView(request.body()).resources()) {
            response.addResponse().resourceType(resource.resourceType()).resourceName(resource.resourceName())
                    .errorCode(TIMED_OUT).errorMessage(MESSAGE);
        }
        return response.struct();
    }

    /** Every partition named REQUEST_TIMED_OUT, and the whole request too from v1 (which has a top-level error). */
    public static Struct electLeaders(Request request) {
        ElectLeadersResponseView response = new ElectLeadersResponseView().errorCode(TIMED_OUT);
        List<ElectLeadersRequestView.TopicPartitions> named =
                new ElectLeadersRequestView(request.body()).topicPartitions();
        if (named != null) {
            for (ElectLeadersRequestView.TopicPartitions topic : named) {
                ElectLeadersResponseView.ReplicaElectionResult result = response.addReplicaElectionResult()
                        .topic(topic.topic());
                for (int partition : topic.partitions()) {
                    result.addPartitionResult().partitionId(partition).errorCode(TIMED_OUT).errorMessage(MESSAGE);
                }
            }
        }
        return response.struct();
    }

    /** Every partition named REQUEST_TIMED_OUT, and the whole request too. */
    public static Struct alterPartitionReassignments(Request request) {
        AlterPartitionReassignmentsResponseView response = new AlterPartitionReassignmentsResponseView()
                .errorCode(TIMED_OUT).errorMessage(MESSAGE);
        for (AlterPartitionReassignmentsRequestView.ReassignableTopic topic
                : new AlterPartitionReassignmentsRequestView(request.body()).topics()) {
            AlterPartitionReassignmentsResponseView.ReassignableTopicResponse answer = response.addResponse()
                    .name(topic.name());
            topic.partitions().forEach(partition -> answer.addPartition().partitionIndex(partition.partitionIndex())
                    .errorCode(TIMED_OUT).errorMessage(MESSAGE));
        }
        return response.struct();
    }

    public static Struct listPartitionReassignments(Request request) {
        return new ListPartitionReassignmentsResponseView().errorCode(TIMED_OUT).errorMessage(MESSAGE).struct();
    }

    public static Struct createAcls(Request request) {
        CreateAclsResponseView response = new CreateAclsResponseView();
        new CreateAclsRequestView(request.body()).creations()
                .forEach(creation -> response.addResult().errorCode(TIMED_OUT).errorMessage(MESSAGE));
        return response.struct();
    }

    public static Struct deleteAcls(Request request) {
        DeleteAclsResponseView response = new DeleteAclsResponseView();
        new DeleteAclsRequestView(request.body()).filters()
                .forEach(filter -> response.addFilterResult().errorCode(TIMED_OUT).errorMessage(MESSAGE));
        return response.struct();
    }

    /** Each user named once, as Kafka's answer lists them. */
    public static Struct alterUserScramCredentials(Request request) {
        AlterUserScramCredentialsRequestView alter = new AlterUserScramCredentialsRequestView(request.body());
        Set<String> users = new LinkedHashSet<>();
        alter.deletions().forEach(deletion -> users.add(deletion.name()));
        alter.upsertions().forEach(upsertion -> users.add(upsertion.name()));
        AlterUserScramCredentialsResponseView response = new AlterUserScramCredentialsResponseView();
        users.forEach(user -> response.addResult().user(user).errorCode(TIMED_OUT).errorMessage(MESSAGE));
        return response.struct();
    }

    /**
     * A delegation token change's, as Kafka's requests' error responses: CreateDelegationToken's with ANONYMOUS as
     * owner and requester, -1 for the times, no id or HMAC; Renew's and Expire's the error alone.
     */
    public static Struct tokenChange(Request request) {
        return switch (request.api()) {
            case CREATE_DELEGATION_TOKEN -> new CreateDelegationTokenResponseView().errorCode(TIMED_OUT)
                    .principalType(KafkaPrincipal.USER_TYPE).principalName(KafkaPrincipal.ANONYMOUS.name())
                    .tokenRequesterPrincipalType(KafkaPrincipal.USER_TYPE)
                    .tokenRequesterPrincipalName(KafkaPrincipal.ANONYMOUS.name())
                    .issueTimestampMs(-1).expiryTimestampMs(-1).maxTimestampMs(-1).tokenId("").hmac(new byte[0])
                    .struct();
            case RENEW_DELEGATION_TOKEN -> new RenewDelegationTokenResponseView().errorCode(TIMED_OUT).struct();
            case EXPIRE_DELEGATION_TOKEN -> new ExpireDelegationTokenResponseView().errorCode(TIMED_OUT).struct();
            default -> throw new IllegalArgumentException(request.api() + " changes no delegation token");
        };
    }
}
