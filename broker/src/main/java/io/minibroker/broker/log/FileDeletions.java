package io.minibroker.broker.log;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Stream;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Kafka's asynchronous deletion of a log's files. Under the log's lock they are only renamed (a segment's files get
 * the {@code .deleted} suffix, a deleted topic's partition directory becomes {@code <topic>-<partition>.<id>-delete});
 * unlinking them, which for a large file can take long on some file systems, happens here, after a delay
 * ({@code file.delete.delay.ms}, {@code log.segment.delete.delay.ms} for a directory), on the broker's scheduler,
 * so that no produce or fetch of the partition waits for it. A read already holding a deleted segment's file reads on
 * either way (its channel stays open until it lets go). What a stop leaves renamed is deleted at the next start.
 */
@FunctionalInterface
public interface FileDeletions {

    /** Kafka's suffix of a segment file renamed for deletion. */
    String DELETED_SUFFIX = ".deleted";

    /** A log's deletion of files it renamed; failures are logged. */
    @FunctionalInterface
    interface Deletion {
        void delete() throws IOException;
    }

    /**
     * Deletes at once, on the calling thread: for logs no broker schedules for (a log manager on its own, before or
     * without its broker's scheduler).
     */
    FileDeletions AT_ONCE = (what, delayMs, deletion) -> run(what, deletion);

    /** Has {@code deletion} (of {@code what}, for the log line) run {@code delayMs} from now. */
    void deleteLater(String what, long delayMs, Deletion deletion);

    /** Runs a deletion, logging a failure (nobody waits for it to act on it). */
    static void run(String what, Deletion deletion) {
        Logger log = LoggerFactory.getLogger(FileDeletions.class);
        try {
            deletion.delete();
            log.info("Deleted {}", what);
        } catch (IOException | RuntimeException e) {
            log.error("Could not delete {}; the next start deletes what is left", what, e);
        }
    }

    /**
     * Renames {@code file} to its name with {@link #DELETED_SUFFIX} (replacing a file of that name a deletion still
     * waits for) and returns the new path; one already gone is only named so (as Kafka renames an index).
     */
    static Path renameForDeletion(Path file) throws IOException {
        Path renamed = file.resolveSibling(file.getFileName() + DELETED_SUFFIX);
        try {
            Files.move(file, renamed, StandardCopyOption.ATOMIC_MOVE);
        } catch (NoSuchFileException e) {
            // nothing to rename: the deletion finds nothing either
        }
        return renamed;
    }

    /** Deletes {@code dir} with everything under it; nothing if it is gone already. */
    static void deleteDirectory(Path dir) throws IOException {
        deleteContents(dir);
        Files.deleteIfExists(dir);
    }

    /** Deletes everything under {@code dir}, but not {@code dir} itself; nothing if it is gone already. */
    static void deleteContents(Path dir) throws IOException {
        List<Path> paths;
        try (Stream<Path> walk = Files.walk(dir)) {
            paths = walk.filter(path -> !path.equals(dir)).sorted(Comparator.reverseOrder()).toList();
        } catch (NoSuchFileException e) {
            return;
        }
        for (Path path : paths) {
            Files.deleteIfExists(path);
        }
    }
}
