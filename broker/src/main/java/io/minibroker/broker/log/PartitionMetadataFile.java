package io.minibroker.broker.log;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Kafka's {@code partition.metadata} in a partition directory, naming the topic id the log belongs to
 * ({@code version: 0\ntopic_id: <id>}, no line end after the id, byte for byte as Kafka writes it; the topic
 * registry gives the id; a file with a line end there, as older builds wrote it, is rewritten once). It is read
 * when the log opens, on the threads opening the logs, as Kafka's log loading reads it, and written only when it is
 * missing or says something else: every start of a single node passes each partition's topic id here, and with
 * 10,000 partitions reading (let alone rewriting) each file afterwards on the starting thread was a start-up cost
 * of its own.
 */
public final class PartitionMetadataFile {
    public static final String FILE_NAME = "partition.metadata";
    /** The only version of the file Kafka writes. */
    private static final int VERSION = 0;

    /** Changed when the log moves to another directory ({@link #moveTo}). */
    private Path file;
    /** The file's text as last read or written; null while there is no file. */
    private String content;

    private PartitionMetadataFile(Path file, String content) {
        this.file = file;
        this.content = content;
    }

    /** The file of the partition directory {@code dir}, read if {@code exists} (as the directory's listing says). */
    static PartitionMetadataFile read(Path dir, boolean exists) throws IOException {
        Path file = dir.resolve(FILE_NAME);
        // Bytes that are not UTF-8 make a text that differs from any written, not a failure to open the log.
        return new PartitionMetadataFile(file,
                exists ? new String(Files.readAllBytes(file), StandardCharsets.UTF_8) : null);
    }

    /**
     * A log's move to another directory: writes the file into {@code futureDir} (if there is one; fsynced), runs {@code swap}
     * (which renames that directory to {@code finalDir}) and keeps the file in {@code finalDir} from then on, under
     * this object's monitor, as a write of the topic id takes it.
     */
    synchronized void moveDuring(Path futureDir, Path finalDir, FileDeletions.Deletion swap) throws IOException {
        if (content != null) {
            DurableFiles.writeAtomically(futureDir.resolve(FILE_NAME), content);
        }
        swap.delete();
        file = finalDir.resolve(FILE_NAME);
    }

    /**
     * Names the topic id {@code topicId} (in Kafka's text form of a Uuid), unless the file already says exactly
     * that.
     */
    public synchronized void writeTopicId(String topicId) throws IOException {
        String text = "version: " + VERSION + "\ntopic_id: " + topicId;
        if (text.equals(content)) {
            return;
        }
        Files.writeString(file, text, StandardCharsets.UTF_8);
        content = text;
    }
}
