package io.minibroker.broker.server;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * How a broker and its parts close what they hold: a part a failed start never made is skipped, and one that fails
 * to close is logged, so that the parts after it still close.
 */
final class Closing {

    /** Under the broker's name: what failed to close is part of its stop. */
    private static final Logger LOG = LoggerFactory.getLogger(Broker.class);

    private Closing() {
    }

    /** Closes a part that may not have been started (a failed start closes what it opened). */
    static void quietly(AutoCloseable part) {
        if (part == null) {
            return;
        }
        try {
            part.close();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (Exception e) {
            LOG.error("Could not close {} cleanly", part, e);
        }
    }
}
