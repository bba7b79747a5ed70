package io.minibroker.broker.quorum;

import io.minibroker.protocol.error.Errors;

import java.util.UUID;
import java.util.function.Supplier;

/**
 * Why a change of the quorum's voters (AddRaftVoter, RemoveRaftVoter: KIP-853) is refused, checked as Kafka 4.3.1's
 * KafkaRaftClient and then its AddVoterHandler and RemoveVoterHandler check it, in their order and with their
 * messages. This broker's quorum is static, as a Kafka node's formatted with {@code controller.quorum.voters}
 * (kraft.version 0, see {@link QuorumReport}): a request that passes its own checks is refused as Kafka refuses it at
 * that kraft.version, since no voter set can change.
 */
record VoterChangeRefusal(Errors error, String message) {

    /** The two changes, with Kafka's words for them in its messages. */
    enum Change {
        ADD("Add", "adding"), REMOVE("Remove", "removing");

        private final String request;
        private final String gerund;

        Change(String request, String gerund) {
            this.request = request;
            this.gerund = gerund;
        }
    }

    /**
     * The refusal of a change of the voter {@code voterId}, {@code voterDirectoryId}: of the request's cluster id, of
     * the voter it names, of what {@code changeChecks} checks of this change alone (null when it passes), else of the
     * static quorum itself.
     */
    static VoterChangeRefusal of(Change change, String clusterId, String requestClusterId, int voterId,
                                 UUID voterDirectoryId, Supplier<VoterChangeRefusal> changeChecks) {
        // A request that names no cluster is taken for this one's, as Kafka's hasValidClusterId takes it.
        if (requestClusterId != null && !requestClusterId.equals(clusterId)) {
            return new VoterChangeRefusal(Errors.INCONSISTENT_CLUSTER_ID, String.format(
                    "The given id \"%s\" doesn't match the cluster id \"%s\"", requestClusterId, clusterId));
        }
        // Kafka checks next that it leads the quorum in its epoch; the one voter here always does, never elected.
        // A voter is its id and its directory id, the zero id being none (Kafka's ReplicaKey.of): the one
        // DescribeQuorum shows for a static voter names no voter that could be added or removed.
        if (voterId < 0 || QuorumReport.NO_DIRECTORY.equals(voterDirectoryId)) {
            return new VoterChangeRefusal(Errors.INVALID_REQUEST,
                    change.request + " voter request didn't include a valid voter");
        }
        VoterChangeRefusal refusal = changeChecks.get();
        if (refusal != null) {
            return refusal;
        }
        // Kafka's handlers first refuse a change while another is pending or before the leader's high watermark is
        // known; neither happens here, where no change is ever made and the one voter's high watermark is its own.
        return new VoterChangeRefusal(Errors.UNSUPPORTED_VERSION,
                "Cluster doesn't support " + change.gerund + " voter because the kraft.version feature is 0");
    }
}
