package io.minibroker.broker.config;

/** A configuration value the broker cannot start with; the message names the key. */
public final class ConfigException extends RuntimeException {

    public ConfigException(String key, Object value, String reason) {
        super("Invalid value " + value + " for configuration " + key + ": " + reason);
    }

    /** A refusal that is not about one value, such as two keys that disagree; the message names them. */
    public ConfigException(String message) {
        super(message);
    }
}
