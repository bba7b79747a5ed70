package io.minibroker.protocol.message;

import static io.minibroker.protocol.schema.SchemaDsl.*;

import io.minibroker.protocol.schema.MessageSchema;

/** Fetch (API key 1): request and response bodies, transcribed from the Kafka protocol specification. */
final class FetchMessages {
    static final MessageSchema REQUEST = message("FetchRequest", "4-18", "12+",
            field("ClusterId", STRING, "12+").nullable("12+").tagged(0, "12+").defaultNull(),
            field("ReplicaId", INT32, "0-14").defaultsTo(-1),
            field("ReplicaState", struct("ReplicaState",
                    field("ReplicaId", INT32, "15+").defaultsTo(-1),
                    field("ReplicaEpoch", INT64, "15+").defaultsTo(-1)), "15+").tagged(1, "15+"),
            field("MaxWaitMs", INT32, "0+"),
            field("MinBytes", INT32, "0+"),
            field("MaxBytes", INT32, "3+").defaultsTo(2147483647),
            field("IsolationLevel", INT8, "4+").defaultsTo(0),
            field("SessionId", INT32, "7+").defaultsTo(0),
            field("SessionEpoch", INT32, "7+").defaultsTo(-1),
            field("Topics", array(struct("FetchTopic",
                    field("Topic", STRING, "0-12"),
                    field("TopicId", UUID, "13+"),
                    field("Partitions", array(struct("FetchPartition",
                            field("Partition", INT32, "0+"),
                            field("CurrentLeaderEpoch", INT32, "9+").defaultsTo(-1),
                            field("FetchOffset", INT64, "0+"),
                            field("LastFetchedEpoch", INT32, "12+").defaultsTo(-1),
                            field("LogStartOffset", INT64, "5+").defaultsTo(-1),
                            field("PartitionMaxBytes", INT32, "0+"),
                            field("ReplicaDirectoryId", UUID, "17+").tagged(0, "17+"),
                            field("HighWatermark", INT64, "18+").tagged(1, "18+").defaultsTo(9223372036854775807L))), "0+"))), "0+"),
            field("ForgottenTopicsData", array(struct("ForgottenTopic",
                    field("Topic", STRING, "7-12"),
                    field("TopicId", UUID, "13+"),
                    field("Partitions", array(INT32), "7+"))), "7+"),
            field("RackId", STRING, "11+").defaultsTo(""));

    static final MessageSchema RESPONSE = message("FetchResponse", "4-18", "12+",
            field("ThrottleTimeMs", INT32, "1+"),
            field("ErrorCode", INT16, "7+"),
            field("SessionId", INT32, "7+").defaultsTo(0),
            field("Responses", array(struct("FetchableTopicResponse",
                    field("Topic", STRING, "0-12"),
                    field("TopicId", UUID, "13+"),
                    field("Partitions", array(struct("PartitionData",
                            field("PartitionIndex", INT32, "0+"),
                            field("ErrorCode", INT16, "0+"),
                            field("HighWatermark", INT64, "0+"),
                            field("LastStableOffset", INT64, "4+").defaultsTo(-1),
                            field("LogStartOffset", INT64, "5+").defaultsTo(-1),
                            field("DivergingEpoch", struct("EpochEndOffset",
                                    field("Epoch", INT32, "12+").defaultsTo(-1),
                                    field("EndOffset", INT64, "12+").defaultsTo(-1)), "12+").tagged(0, "12+"),
                            field("CurrentLeader", struct("LeaderIdAndEpoch",
                                    field("LeaderId", INT32, "12+").defaultsTo(-1),
                                    field("LeaderEpoch", INT32, "12+").defaultsTo(-1)), "12+").tagged(1, "12+"),
                            field("SnapshotId", struct("SnapshotId",
                                    field("EndOffset", INT64, "0+").defaultsTo(-1),
                                    field("Epoch", INT32, "0+").defaultsTo(-1)), "12+").tagged(2, "12+"),
                            field("AbortedTransactions", array(struct("AbortedTransaction",
                                    field("ProducerId", INT64, "4+"),
                                    field("FirstOffset", INT64, "4+"))), "4+").nullable("4+"),
                            field("PreferredReadReplica", INT32, "11+").defaultsTo(-1),
                            field("Records", RECORDS, "0+").nullable("0+"))), "0+"))), "0+"),
            field("NodeEndpoints", array(struct("NodeEndpoint",
                    field("NodeId", INT32, "16+"),
                    field("Host", STRING, "16+"),
                    field("Port", INT32, "16+"),
                    field("Rack", STRING, "16+").nullable("16+").defaultNull())), "16+").tagged(0, "16+"));

    private FetchMessages() {
    }
}
