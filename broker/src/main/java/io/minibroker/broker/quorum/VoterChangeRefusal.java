package io.minibroker.broker.quorum;

import io.minibroker.protocol.error.Errors;
import io.minibroker.protocol.message.view.ApiVersionsResponseView;

import java.util.List;
import java.util.UUID;
import java.util.function.Supplier;

/**
 * Why a change of the quorum's voters (AddRaftVoter, RemoveRaftVoter: KIP-853) is refused, checked as Kafka 4.3.1's
 * KafkaRaftClient and then its AddVoterHandler and RemoveVoterHandler check it, in their order and with their
 * messages. Every change is refused: the one voter, this node, leads alone ({@link VoterSet}), and no other node
 * could vote. At kraft.version 0 a request that passes its own checks meets the static quorum; at kraft.version 1 it
 * meets the checks Kafka makes of the voter set, each answered as Kafka answers it for this set and these nodes, and an
 * addition of a new id, once the new voter has answered the ApiVersions Kafka sends it, that voter's answer.
 */
record VoterChangeRefusal(Errors error, String message) {

    /** The two changes, with Kafka's words for them in its messages and their checks of the voter set. */
    enum Change {
        ADD("Add", "adding") {
            /**
             * A new id goes on ({@code null}): Kafka then asks the new voter for its ApiVersions on the quorum's
             * listener, and judges its answer ({@link #ofNewVoter}).
             */
            @Override
            VoterChangeRefusal ofVoterSet(ReplicaKey voter, List<ReplicaKey> voters) {
                if (voters.stream().anyMatch(existing -> existing.id() == voter.id())) {
                    return new VoterChangeRefusal(Errors.DUPLICATE_VOTER, String.format(
                            "The voter id for %s is already part of the set of voters %s.", voter, voters));
                }
                return null;
            }
        },
        REMOVE("Remove", "removing") {
            /** Kafka's voter set removes a voter it has under both ids, and never its last one: here the only one. */
            @Override
            VoterChangeRefusal ofVoterSet(ReplicaKey voter, List<ReplicaKey> voters) {
                return new VoterChangeRefusal(Errors.VOTER_NOT_FOUND, String.format(
                        "Cannot remove voter %s from the set of voters %s", voter, voters));
            }
        };

        private final String request;
        private final String gerund;

        Change(String request, String gerund) {
            this.request = request;
            this.gerund = gerund;
        }

        /**
         * The refusal of this change of {@code voter} by the voter set {@code voters} of a kraft.version 1 quorum, null
         * when the change goes on.
         */
        abstract VoterChangeRefusal ofVoterSet(ReplicaKey voter, List<ReplicaKey> voters);
    }

    /** Another change is under way (an addition, waiting for its voter's answer): Kafka's words, at either change. */
    static final VoterChangeRefusal PENDING = new VoterChangeRefusal(Errors.REQUEST_TIMED_OUT,
            "Request timed out waiting for leader to handle previous voter change request");

    /**
     * The new voter did not answer within {@code controller.quorum.request.timeout.ms}: Kafka's leader expires the
     * operation without a message of its own, so that its answer carries the error's default one.
     */
    static final VoterChangeRefusal TIMED_OUT = new VoterChangeRefusal(Errors.REQUEST_TIMED_OUT,
            "The request timed out.");

    /**
     * The refusal of a change of the voter {@code voterId}, {@code voterDirectoryId}: of the request's cluster id, of
     * the voter it names, of what {@code changeChecks} checks of this change alone (null when it passes), of another
     * change under way, else of the quorum's kraft.version and voters; null when the change goes on (an addition).
     */
    static VoterChangeRefusal of(Change change, String clusterId, String requestClusterId, int voterId,
                                 UUID voterDirectoryId, Supplier<VoterChangeRefusal> changeChecks, VoterSet voters) {
        // A request that names no cluster is taken for this one's, as Kafka's hasValidClusterId takes it.
        if (requestClusterId != null && !requestClusterId.equals(clusterId)) {
            return new VoterChangeRefusal(Errors.INCONSISTENT_CLUSTER_ID, String.format(
                    "The given id \"%s\" doesn't match the cluster id \"%s\"", requestClusterId, clusterId));
        }
        // Kafka checks next that it leads the quorum in its epoch; the one voter here always does, never elected.
        // A voter is its id and its directory id, the zero id being none (Kafka's ReplicaKey.of): the one
        // DescribeQuorum shows for a static voter names no voter that could be added or removed.
        if (voterId < 0 || ReplicaKey.NO_DIRECTORY.equals(voterDirectoryId)) {
            return new VoterChangeRefusal(Errors.INVALID_REQUEST,
                    change.request + " voter request didn't include a valid voter");
        }
        VoterChangeRefusal refusal = changeChecks.get();
        if (refusal != null) {
            return refusal;
        }
        if (voters.changePending()) {
            return PENDING;
        }
        // Kafka's handlers then refuse a change before the leader's high watermark is known, and after the
        // kraft.version check one while a change of the voters is not committed yet; neither happens here, where no
        // change is ever made and the one voter's high watermark is its own.
        short kraftVersion = voters.kraftVersion();
        if (kraftVersion == 0) {
            return new VoterChangeRefusal(Errors.UNSUPPORTED_VERSION,
                    "Cluster doesn't support " + change.gerund + " voter because the kraft.version feature is 0");
        }
        return change.ofVoterSet(new ReplicaKey(voterId, voterDirectoryId), List.of(voters.leader(kraftVersion)));
    }

    /**
     * The refusal of the new voter {@code voter} for its answer to ApiVersions, as Kafka's AddVoterHandler judges it:
     * an error it answered (or its connection's); kraft.version levels that do not include the finalized one,
     * printed as Kafka prints them (without the closing parenthesis when the voter names a range); else a replica
     * that is not caught up, as none is here.
     */
    static VoterChangeRefusal ofNewVoter(ReplicaKey voter, NewVoterApiVersions.Answer answer, short kraftVersion) {
        if (answer.error() != Errors.NONE) {
            // Kafka's message names no voter: "for since", its words.
            return new VoterChangeRefusal(Errors.REQUEST_TIMED_OUT,
                    "Aborted add voter operation for since API_VERSIONS returned an error " + answer.error());
        }
        ApiVersionsResponseView.SupportedFeatureKey range = answer.kraftVersions();
        if (range == null || range.minVersion() > kraftVersion || range.maxVersion() < kraftVersion) {
            return new VoterChangeRefusal(Errors.INVALID_REQUEST, String.format(
                    "Aborted add voter operation for %s since the kraft.version range %s doesn't support the"
                            + " finalized version %d", voter, range == null ? "(min: 0, max: 0)"
                            : "(min: " + range.minVersion() + ", max: " + range.maxVersion(), kraftVersion));
        }
        // Kafka wants the new voter caught up: fetching the metadata log from the leader under this id and directory
        // id, the last fetch within an hour. None ever is here: this broker's other nodes follow the controller's
        // image, not a log, and none could vote, so none is taken for a caught-up replica, not even a broker named
        // by the id and directory id its image fetches carry (which Kafka would take for one, and go on to add).
        return new VoterChangeRefusal(Errors.REQUEST_TIMED_OUT,
                "Aborted add voter operation for " + voter + " since it is lagging behind");
    }
}
