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
import java.util.List;
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

    /**
     * The file's overrides, unmodifiable (inner maps too), by resource name; none if there is no file. A line that
     * is not of this form (a file edited by hand, say) stops the read with an error naming the file and the line,
     * not the line's text, which may hold a password.
     */
    public static Map<String, Map<String, String>> read(Path file) {
        if (!Files.exists(file)) {
            return Map.of();
        }
        Map<String, Map<String, String>> read = new TreeMap<>();
        List<String> lines;
        try {
            lines = Files.readAllLines(file, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + file, e);
        }
        for (int number = 1; number <= lines.size(); number++) {
            String[] fields = lines.get(number - 1).split(" ");
            Map<String, String> resource = new LinkedHashMap<>();
            for (int i = 1; i < fields.length; i++) {
                String[] pair = fields[i].split("=", 2);
                if (pair.length < 2) {
                    throw malformed(file, number, "config " + i + " has no '='");
                }
                resource.put(decode(pair[0], file, number), decode(pair[1], file, number));
            }
            read.put(decode(fields[0], file, number), Map.copyOf(resource));
        }
        return Collections.unmodifiableMap(read);
    }

    private static IllegalStateException malformed(Path file, int line, String why) {
        return new IllegalStateException("cannot read " + file + ", line " + line + ": " + why);
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

    private static String decode(String text, Path file, int line) {
        try {
            return URLDecoder.decode(text, StandardCharsets.UTF_8);
        } catch (IllegalArgumentException e) {
            throw malformed(file, line, "not URL-encoded (" + e.getMessage() + ")");
        }
    }
}
