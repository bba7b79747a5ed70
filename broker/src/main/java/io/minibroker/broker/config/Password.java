package io.minibroker.broker.config;

import java.util.function.Function;

/**
 * A secret config value, Kafka's {@code Password}: its text is read where it is used, and never printed, so that a
 * config logged or listed does not give it away.
 */
public record Password(String value) {

    static final Function<String, Password> PARSER = Password::new;

    @Override
    public String toString() {
        return "[hidden]";
    }
}
