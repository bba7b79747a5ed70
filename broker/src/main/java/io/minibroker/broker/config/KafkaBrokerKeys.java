package io.minibroker.broker.config;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * Kafka 4.3.1's broker keys (KafkaConfig's ConfigDef) and their defaults as DescribeConfigs prints them: what a
 * broker's DescribeConfigs lists (every key but the internal ones, as Kafka's ConfigHelper lists a KafkaConfig's
 * non-internal values), and the default a key this broker does not read is reported at. The table is
 * {@code kafka-broker-keys.txt} beside this class, generated from Kafka's ConfigDef by {@code KafkaBrokerKeysTest},
 * which fails when the two differ: facts about Kafka's interface kept as data, as {@link KafkaConfigTypes}' types.
 */
public final class KafkaBrokerKeys {

    private static final String RESOURCE = "kafka-broker-keys.txt";

    /**
     * One of Kafka's broker keys: internal ones are never listed unless set; a required one (node.id, process.roles,
     * controller.listener.names) has no default, so no DEFAULT_CONFIG synonym; {@code defaultText} is null for a key
     * whose default is null, and for a required one.
     */
    public record Definition(String name, boolean internal, boolean required, String defaultText) {
    }

    private static final Map<String, Definition> DEFINITIONS = load();

    private KafkaBrokerKeys() {
    }

    /** Kafka's definition of a broker key, empty for a key Kafka's KafkaConfig does not define. */
    public static Optional<Definition> of(String name) {
        return Optional.ofNullable(DEFINITIONS.get(name));
    }

    /** The keys a Kafka broker's DescribeConfigs lists whether set or not (every non-internal one), by name. */
    public static List<Definition> listed() {
        return DEFINITIONS.values().stream().filter(definition -> !definition.internal()).toList();
    }

    /**
     * Reads the table: a line is {@code <kind> <name>}, then {@code =<default>} unless the default is null or there is
     * none; the kind is {@code default}, {@code required} or {@code internal}; {@code #} starts a comment line.
     */
    private static Map<String, Definition> load() {
        Map<String, Definition> definitions = new TreeMap<>();
        try (InputStream in = KafkaBrokerKeys.class.getResourceAsStream(RESOURCE)) {
            if (in == null) {
                throw new IllegalStateException(RESOURCE + " is missing from the broker's jar");
            }
            BufferedReader lines = new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8));
            for (String line = lines.readLine(); line != null; line = lines.readLine()) {
                if (line.isEmpty() || line.startsWith("#")) {
                    continue;
                }
                int space = line.indexOf(' ');
                String kind = line.substring(0, space);
                int equals = line.indexOf('=', space);
                String name = equals < 0 ? line.substring(space + 1) : line.substring(space + 1, equals);
                String defaultText = equals < 0 ? null : line.substring(equals + 1);
                definitions.put(name, new Definition(name, kind.equals("internal"), kind.equals("required"),
                        defaultText));
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return Collections.unmodifiableMap(definitions); // a TreeMap: listed() in name order
    }
}
