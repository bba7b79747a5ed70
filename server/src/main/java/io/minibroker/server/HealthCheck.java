package io.minibroker.server;

import io.minibroker.broker.cluster.NodeChannel;
import io.minibroker.protocol.error.Errors;
import io.minibroker.protocol.message.ApiKey;
import io.minibroker.protocol.message.view.ApiVersionsRequestView;
import io.minibroker.protocol.message.view.ApiVersionsResponseView;

import java.io.IOException;

/**
 * The image's HEALTHCHECK: {@code HealthCheck [host:port]} (default {@value #DEFAULT_ADDRESS}) exits 0 if the
 * broker there answers ApiVersions without error, 1 otherwise. ApiVersions, because Kafka serves it before
 * authentication: the check needs no credentials on a SASL listener. An open port would prove less (the broker
 * binds before it serves).
 */
public final class HealthCheck {

    static final String DEFAULT_ADDRESS = "localhost:9092";
    /** Version 0: no fields to fill, and every Kafka-protocol broker serves it. */
    private static final short VERSION = 0;
    private static final int TIMEOUT_MS = 5_000;

    private HealthCheck() {
    }

    public static void main(String[] args) {
        String address = args.length > 0 ? args[0] : DEFAULT_ADDRESS;
        String problem = problem(address);
        if (problem != null) {
            System.err.println("minibroker health check: " + address + ": " + problem);
            System.exit(1);
        }
    }

    /** What is wrong with the broker at {@code host:port}, or null if it answers. */
    static String problem(String address) {
        int colon = address.lastIndexOf(':');
        if (colon <= 0) {
            return "not host:port";
        }
        int port;
        try {
            port = Integer.parseInt(address.substring(colon + 1));
        } catch (NumberFormatException e) {
            return "not host:port";
        }
        try (NodeChannel channel = new NodeChannel(address.substring(0, colon), port, "minibroker-health-check",
                TIMEOUT_MS)) {
            short error = new ApiVersionsResponseView(channel.send(ApiKey.API_VERSIONS, VERSION,
                    new ApiVersionsRequestView().struct())).errorCode();
            return error == Errors.NONE.code() ? null : "ApiVersions answered " + Errors.forCode(error);
        } catch (IOException e) {
            return e.toString();
        }
    }
}
