package io.minibroker.broker.config;

import java.util.ArrayList;
import java.util.List;

/** One controller voter as {@code controller.quorum.voters} spells it: {@code id@host:port}. */
public record QuorumVoter(int nodeId, String host, int port) {

    /** Parses a comma-separated voter list such as {@code 0@localhost:9093}; an empty text is no voter. */
    public static List<QuorumVoter> parseList(String text) {
        List<QuorumVoter> voters = new ArrayList<>();
        for (String part : text.split(",")) {
            String spec = part.trim();
            if (!spec.isEmpty()) {
                voters.add(parse(spec));
            }
        }
        return List.copyOf(voters);
    }

    private static QuorumVoter parse(String spec) {
        int at = spec.indexOf('@');
        int colon = spec.lastIndexOf(':');
        if (at <= 0 || colon <= at + 1) {
            throw new IllegalArgumentException("expected id@host:port, got '" + spec + "'");
        }
        int port = Integer.parseInt(spec.substring(colon + 1));
        if (port < 1 || port > 65_535) {
            throw new IllegalArgumentException("port out of range in '" + spec + "'");
        }
        return new QuorumVoter(Integer.parseInt(spec.substring(0, at)), spec.substring(at + 1, colon), port);
    }

    @Override
    public String toString() {
        return nodeId + "@" + host + ":" + port;
    }
}
