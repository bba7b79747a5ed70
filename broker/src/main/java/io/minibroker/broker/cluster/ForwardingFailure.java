package io.minibroker.broker.cluster;

import io.minibroker.broker.admin.AlterClientQuotasHandler;
import io.minibroker.broker.token.DelegationTokenApis;
import io.minibroker.protocol.error.DefaultMessages;
import io.minibroker.protocol.error.Errors;
import io.minibroker.protocol.message.Request;
import io.minibroker.protocol.message.view.AddRaftVoterResponseView;
import io.minibroker.protocol.message.view.AlterConfigsRequestView;
import io.minibroker.protocol.message.view.AlterUserScramCredentialsRequestView;
import io.minibroker.protocol.message.view.AlterUserScramCredentialsResponseView;
import io.minibroker.protocol.message.view.CreateAclsRequestView;
import io.minibroker.protocol.message.view.CreateAclsResponseView;
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
import io.minibroker.protocol.message.view.RemoveRaftVoterResponseView;
import io.minibroker.protocol.message.view.UnregisterBrokerResponseView;
import io.minibroker.protocol.message.view.UpdateFeaturesResponseView;
import io.minibroker.protocol.schema.Struct;

import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * The answers a broker gives to a forwarded request that the controller did not answer, as Kafka's
 * ForwardingManager makes them with the request's {@code getErrorResponse}: every topic or resource of the request
 * the error (REQUEST_TIMED_OUT when the controller cannot be reached, which clients retry; UNKNOWN_SERVER_ERROR when
 * it refused the envelope), with no message, as Kafka's ApiError.fromThrowable leaves none for either (but where an
 * API's getErrorResponse sets the error's own); one method per API's response shape.
 */
public final class ForwardingFailure {

    private ForwardingFailure() {
    }

    public static Struct createTopics(Request request, Errors error) {
        CreateTopicsResponseView response = new CreateTopicsResponseView();
        for (CreateTopicsRequestView.CreatableTopic topic : new CreateTopicsRequestView(request.body()).topics()) {
            response.addTopic().name(topic.name()).errorCode(error.code()).errorMessage(null);
        }
        return response.struct();
    }

    public static Struct deleteTopics(Request request, Errors error) {
        DeleteTopicsRequestView delete = new DeleteTopicsRequestView(request.body());
        DeleteTopicsResponseView response = new DeleteTopicsResponseView();
        if (request.version() < 6) {
            for (String name : delete.topicNames()) {
                response.addResponse().name(name).errorCode(error.code());
            }
        } else {
            for (DeleteTopicsRequestView.DeleteTopicState topic : delete.topics()) {
                response.addResponse().name(topic.name()).topicId(topic.topicId())
                        .errorCode(error.code()).errorMessage(null);
            }
        }
        return response.struct();
    }

    /** The whole request's: UpdateFeatures carries no per-feature results with a top-level error. */
    public static Struct updateFeatures(Request request, Errors error) {
        return new UpdateFeaturesResponseView().errorCode(error.code()).errorMessage(null).struct();
    }

    public static Struct unregisterBroker(Request request, Errors error) {
        return new UnregisterBrokerResponseView().errorCode(error.code()).errorMessage(null).struct();
    }

    public static Struct describeQuorum(Request request, Errors error) {
        return new DescribeQuorumResponseView().errorCode(error.code()).errorMessage(null).struct();
    }

    /** With the error's own message, which Kafka's AddRaftVoterRequest.getErrorResponse sets. */
    public static Struct addRaftVoter(Request request, Errors error) {
        return new AddRaftVoterResponseView().errorCode(error.code()).errorMessage(DefaultMessages.of(error))
                .struct();
    }

    /** With the error's own message, which Kafka's RemoveRaftVoterRequest.getErrorResponse sets. */
    public static Struct removeRaftVoter(Request request, Errors error) {
        return new RemoveRaftVoterResponseView().errorCode(error.code()).errorMessage(DefaultMessages.of(error))
                .struct();
    }

    public static Struct createPartitions(Request request, Errors error) {
        CreatePartitionsResponseView response = new CreatePartitionsResponseView();
        for (CreatePartitionsRequestView.CreatePartitionsTopic topic
                : new CreatePartitionsRequestView(request.body()).topics()) {
            response.addResult().name(topic.name()).errorCode(error.code()).errorMessage(null);
        }
        return response.struct();
    }

    public static Struct alterClientQuotas(Request request, Errors error) {
        return AlterClientQuotasHandler.refusal(request, error, null);
    }

    public static Struct alterConfigs(Request request, Errors error) {
        AlterConfigsResponseView response = new AlterConfigsResponseView();
        for (AlterConfigsRequestView.AlterConfigsResource resource
                : new AlterConfigsRequestView(request.body()).resources()) {
            response.addResponse().resourceType(resource.resourceType()).resourceName(resource.resourceName())
                    .errorCode(error.code()).errorMessage(null);
        }
        return response.struct();
    }

    public static Struct incrementalAlterConfigs(Request request, Errors error) {
        IncrementalAlterConfigsResponseView response = new IncrementalAlterConfigsResponseView();
        for (IncrementalAlterConfigsRequestView.AlterConfigsResource resource
                : new IncrementalAlterConfigsRequestView(request.body()).resources()) {
            response.addResponse().resourceType(resource.resourceType()).resourceName(resource.resourceName())
                    .errorCode(error.code()).errorMessage(null);
        }
        return response.struct();
    }

    /** Every partition named the error, and the whole request too from v1 (which has a top-level error). */
    public static Struct electLeaders(Request request, Errors error) {
        ElectLeadersResponseView response = new ElectLeadersResponseView().errorCode(error.code());
        List<ElectLeadersRequestView.TopicPartitions> named =
                new ElectLeadersRequestView(request.body()).topicPartitions();
        if (named != null) {
            for (ElectLeadersRequestView.TopicPartitions topic : named) {
                ElectLeadersResponseView.ReplicaElectionResult result = response.addReplicaElectionResult()
                        .topic(topic.topic());
                for (int partition : topic.partitions()) {
                    result.addPartitionResult().partitionId(partition).errorCode(error.code()).errorMessage(null);
                }
            }
        }
        return response.struct();
    }

    /** Every partition named the error, and the whole request too. */
    public static Struct alterPartitionReassignments(Request request, Errors error) {
        AlterPartitionReassignmentsResponseView response = new AlterPartitionReassignmentsResponseView()
                .errorCode(error.code()).errorMessage(null);
        for (AlterPartitionReassignmentsRequestView.ReassignableTopic topic
                : new AlterPartitionReassignmentsRequestView(request.body()).topics()) {
            AlterPartitionReassignmentsResponseView.ReassignableTopicResponse answer = response.addResponse()
                    .name(topic.name());
            topic.partitions().forEach(partition -> answer.addPartition().partitionIndex(partition.partitionIndex())
                    .errorCode(error.code()).errorMessage(null));
        }
        return response.struct();
    }

    public static Struct listPartitionReassignments(Request request, Errors error) {
        return new ListPartitionReassignmentsResponseView().errorCode(error.code()).errorMessage(null).struct();
    }

    public static Struct createAcls(Request request, Errors error) {
        CreateAclsResponseView response = new CreateAclsResponseView();
        new CreateAclsRequestView(request.body()).creations()
                .forEach(creation -> response.addResult().errorCode(error.code()).errorMessage(null));
        return response.struct();
    }

    public static Struct deleteAcls(Request request, Errors error) {
        DeleteAclsResponseView response = new DeleteAclsResponseView();
        new DeleteAclsRequestView(request.body()).filters()
                .forEach(filter -> response.addFilterResult().errorCode(error.code()).errorMessage(null));
        return response.struct();
    }

    /** Each user named once, as Kafka's answer lists them. */
    public static Struct alterUserScramCredentials(Request request, Errors error) {
        AlterUserScramCredentialsRequestView alter = new AlterUserScramCredentialsRequestView(request.body());
        Set<String> users = new LinkedHashSet<>();
        alter.deletions().forEach(deletion -> users.add(deletion.name()));
        alter.upsertions().forEach(upsertion -> users.add(upsertion.name()));
        AlterUserScramCredentialsResponseView response = new AlterUserScramCredentialsResponseView();
        users.forEach(user -> response.addResult().user(user).errorCode(error.code()).errorMessage(null));
        return response.struct();
    }

    /**
     * A delegation token change's, as Kafka's requests' error responses: CreateDelegationToken's with ANONYMOUS as
     * owner and requester, -1 for the times, no id or HMAC; Renew's and Expire's the error alone.
     */
    public static Struct tokenChange(Request request, Errors error) {
        return switch (request.api()) {
            case CREATE_DELEGATION_TOKEN -> DelegationTokenApis.createFailed(error);
            case RENEW_DELEGATION_TOKEN -> new RenewDelegationTokenResponseView().errorCode(error.code()).struct();
            case EXPIRE_DELEGATION_TOKEN -> new ExpireDelegationTokenResponseView().errorCode(error.code()).struct();
            default -> throw new IllegalArgumentException(request.api() + " changes no delegation token");
        };
    }
}
