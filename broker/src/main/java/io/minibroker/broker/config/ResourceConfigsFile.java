package io.minibroker.broker.config;

import io.minibroker.broker.log.DurableFiles;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URLDecoder;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.TreeMap;

/**
 * A file of config overrides by resource name (a group id, a broker id or "" for the cluster default): a line per
 * resource, its URL-encoded name, then {@code name=value} pairs URL-encoded; replaced whole through
 * {@link DurableFiles}, so that a crash leaves the old file or the new one.
 */
public final class ResourceConfigsFile {

    private ResourceConfigsFile() {
    }

    /** The file's overrides, unmodifiable (inner maps too), by resource name; none if there is no file. */
    public static Map<String, Map<String, String>> read(Path file) {
        if (!Files.exists(file)) {
            return Map.of();
        }
        Map<String, Map<String, String>> read = new TreeMap<>();
        try {
            for (String line : Files.readAllLines(file, StandardCharsets.UTF_8)) {
                String[] fields = line.split(" ");
                Map<String, String> resource = new LinkedHashMap<>();
                for (int i = 1; i < fields.length; i++) {
                    String[] pair = fields[i].split("=", 2);
                    resource.put(decode(pair[0]), decode(pair[1]));
                }
                read.put(decode(fields[0]), Map.copyOf(resource));
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + file, e);
        }
        return Collections.unmodifiableMap(read);
    }

    /** Replaces the file with these overrides. */
    public static void write(Path file, Map<String, Map<String, String>> all) throws IOException {
        StringBuilder text = new StringBuilder();
        all.forEach((resource, configs) -> {
            text.append(encode(resource));
            configs.forEach((name, value) -> text.append(' ').append(encode(name)).append('=').append(encode(value)));
            text.append('\n');
        });
        DurableFiles.writeAtomically(file, text.toString());
    }

    private static String encode(String text) {
        return URLEncoder.encode(text, StandardCharsets.UTF_8);
    }

    private static String decode(String text) {
        return URLDecoder.decode(text, StandardCharsets.UTF_8);
    }
}
