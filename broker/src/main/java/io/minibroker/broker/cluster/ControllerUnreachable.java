package io.minibroker.broker.cluster;

import io.minibroker.protocol.error.Errors;
import io.minibroker.protocol.message.ApiKey;
import io.minibroker.protocol.message.Request;
import io.minibroker.protocol.schema.Struct;

import java.util.List;

/**
 * The answers a broker gives to a forwarded request when the controller cannot be reached: every topic or
 * resource of the request REQUEST_TIMED_OUT, which clients retry, one method per API's response shape.
 */
public final class ControllerUnreachable {

    private static final String MESSAGE = "the controller cannot be reached";

    private ControllerUnreachable() {
    }

    public static Struct createTopics(Request request) {
        Struct response = ApiKey.CREATE_TOPICS.response().newMessage();
        for (Struct topic : request.body().getStructs("Topics")) {
            timedOut(response.addElement("Topics").set("Name", topic.getString("Name")));
        }
        return response;
    }

    public static Struct deleteTopics(Request request) {
        Struct response = ApiKey.DELETE_TOPICS.response().newMessage();
        if (request.version() < 6) {
            for (String name : request.body().<String>getList("TopicNames")) {
                response.addElement("Responses").set("Name", name).set("ErrorCode", Errors.REQUEST_TIMED_OUT.code());
            }
        } else {
            for (Struct topic : request.body().getStructs("Topics")) {
                timedOut(response.addElement("Responses").set("Name", topic.getString("Name"))
                        .set("TopicId", topic.getUuid("TopicId")));
            }
        }
        return response;
    }

    public static Struct createPartitions(Request request) {
        Struct response = ApiKey.CREATE_PARTITIONS.response().newMessage();
        for (Struct topic : request.body().getStructs("Topics")) {
            timedOut(response.addElement("Results").set("Name", topic.getString("Name")));
        }
        return response;
    }

    /** For AlterConfigs and IncrementalAlterConfigs, whose responses have the same shape. */
    public static Struct alterConfigs(ApiKey api, Request request) {
        Struct response = api.response().newMessage();
        for (Struct resource : request.body().getStructs("Resources")) {
            timedOut(response.addElement("Responses").set("ResourceType", resource.get("ResourceType"))
                    .set("ResourceName", resource.getString("ResourceName")));
        }
        return response;
    }

    /** Every partition named REQUEST_TIMED_OUT, and the whole request too from v1 (which has a top-level error). */
    public static Struct electLeaders(Request request) {
        Struct response = ApiKey.ELECT_LEADERS.response().newMessage().set("ErrorCode", Errors.REQUEST_TIMED_OUT.code());
        List<Struct> named = request.body().getStructs("TopicPartitions");
        if (named != null) {
            for (Struct topic : named) {
                Struct result = response.addElement("ReplicaElectionResults").set("Topic", topic.getString("Topic"));
                for (int partition : topic.<Integer>getList("Partitions")) {
                    timedOut(result.addElement("PartitionResult").set("PartitionId", partition));
                }
            }
        }
        return response;
    }

    private static void timedOut(Struct result) {
        result.set("ErrorCode", Errors.REQUEST_TIMED_OUT.code()).set("ErrorMessage", MESSAGE);
    }
}
