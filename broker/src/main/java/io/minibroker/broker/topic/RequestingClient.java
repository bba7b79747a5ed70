package io.minibroker.broker.topic;

import io.minibroker.broker.api.RequestContext;
import io.minibroker.protocol.header.RequestHeader;

/**
 * The client request on whose account topics are created, as Kafka's AutoTopicCreationManager takes a request's
 * context: its principal and address ({@code context}), and its header, whose client id and correlation id the
 * CreateTopics sent for it borrows. Its principal is authorized for the topics and its {@code controller_mutation_rate}
 * counts them.
 */
public record RequestingClient(RequestContext context, RequestHeader header) {

    public String principalName() {
        return context.principal().name();
    }

    public String clientId() {
        return header.clientId();
    }
}
