package io.minibroker.broker.log;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * A per-partition offset file in a log directory's root, in Kafka's text format: a version line
 * ({@code 0}), a count line, then one {@code topic partition offset} line per partition.
 *
 * <pre>
 * recovery-point-offset-checkpoint
 * 0
 * 2
 * orders 0 1500
 * my-topic 3 42
 * </pre>
 * Written whole to {@code <name>.tmp}, fsynced, then renamed over the old file and the directory fsynced,
 * so a crash leaves either the old file or the new one, never a mix.
 */
final class OffsetCheckpointFile {
    static final String RECOVERY_POINT = "recovery-point-offset-checkpoint";
    static final String LOG_START_OFFSET = "log-start-offset-checkpoint";
    static final String REPLICATION_OFFSET = "replication-offset-checkpoint";
    static final String CLEANER_OFFSET = "cleaner-offset-checkpoint";
    private static final int VERSION = 0;

    private final Path path;

    OffsetCheckpointFile(Path path) {
        this.path = path;
    }

    void write(Map<TopicPartition, Long> offsets) throws IOException {
        StringBuilder text = new StringBuilder();
        text.append(VERSION).append('\n').append(offsets.size()).append('\n');
        offsets.forEach((tp, offset) -> text.append(tp.topic()).append(' ').append(tp.partition())
                .append(' ').append(offset).append('\n'));
        DurableFiles.writeAtomically(path, text.toString());
    }

    /** The offsets written last; empty if there is no file yet. Malformed content is an IOException. */
    Map<TopicPartition, Long> read() throws IOException {
        List<String> lines;
        try {
            lines = Files.readAllLines(path, StandardCharsets.UTF_8);
        } catch (NoSuchFileException e) {
            return Map.of();
        }
        try {
            if (lines.size() < 2 || Integer.parseInt(lines.get(0).trim()) != VERSION) {
                throw new IOException("unrecognised checkpoint header in " + path);
            }
            int count = Integer.parseInt(lines.get(1).trim());
            if (lines.size() != count + 2) {
                throw new IOException(path + " announces " + count + " entries but has " + (lines.size() - 2));
            }
            Map<TopicPartition, Long> offsets = new HashMap<>();
            for (String line : lines.subList(2, lines.size())) {
                String[] fields = line.trim().split(" ");
                if (fields.length != 3) {
                    throw new IOException("malformed line in " + path + ": " + line);
                }
                offsets.put(new TopicPartition(fields[0], Integer.parseInt(fields[1])), Long.parseLong(fields[2]));
            }
            return offsets;
        } catch (IllegalArgumentException e) {
            throw new IOException("malformed checkpoint " + path, e);
        }
    }
}
