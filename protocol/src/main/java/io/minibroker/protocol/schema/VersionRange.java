package io.minibroker.protocol.schema;

/**
 * An inclusive range of message versions, written the way Kafka's specs write them: {@code "3+"} is
 * version 3 and every later one, {@code "0-12"} is 0 to 12, {@code "5"} is only 5, {@code "none"} is empty.
 * Open ranges matter: a field or flexibility that starts at 3 also applies to versions newer than any
 * this broker knows, which is how a too-new request header is still parsed correctly.
 */
public record VersionRange(short lowest, short highest) {
    public static final VersionRange NONE = new VersionRange((short) 1, (short) 0);

    public static VersionRange parse(String text) {
        if (text.equals("none")) {
            return NONE;
        }
        if (text.endsWith("+")) {
            return new VersionRange(Short.parseShort(text.substring(0, text.length() - 1)), Short.MAX_VALUE);
        }
        int dash = text.indexOf('-');
        if (dash < 0) {
            short only = Short.parseShort(text);
            return new VersionRange(only, only);
        }
        return new VersionRange(Short.parseShort(text.substring(0, dash)), Short.parseShort(text.substring(dash + 1)));
    }

    public boolean contains(short version) {
        return version >= lowest && version <= highest;
    }

    public boolean isEmpty() {
        return lowest > highest;
    }

    @Override
    public String toString() {
        if (isEmpty()) {
            return "none";
        }
        if (highest == Short.MAX_VALUE) {
            return lowest + "+";
        }
        return lowest == highest ? Short.toString(lowest) : lowest + "-" + highest;
    }
}
