package io.minibroker.broker.log;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;

/**
 * Kafka's {@code .lock} in each log directory: an OS file lock held while the logs are open, so that a second
 * broker started on a directory in use (another process, or another broker in this JVM) stops at its start instead
 * of writing the same files; released and the file deleted at the close, as Kafka's LogManager does.
 */
final class LogDirLocks implements AutoCloseable {

    static final String FILE_NAME = ".lock";

    private final List<FileChannel> channels = new ArrayList<>();
    private final List<Path> files = new ArrayList<>();

    /** Locks every directory, or none: throws naming the first one that another broker holds. */
    static LogDirLocks acquire(List<Path> logDirs) throws IOException {
        LogDirLocks locks = new LogDirLocks();
        try {
            for (Path logDir : logDirs) {
                locks.lock(logDir);
            }
        } catch (IOException | RuntimeException e) {
            try {
                locks.close();
            } catch (IOException closing) {
                e.addSuppressed(closing);
            }
            throw e;
        }
        return locks;
    }

    private void lock(Path logDir) throws IOException {
        Files.createDirectories(logDir);
        Path file = logDir.resolve(FILE_NAME);
        FileChannel channel = FileChannel.open(file, StandardOpenOption.CREATE, StandardOpenOption.WRITE);
        FileLock lock;
        try {
            lock = channel.tryLock();
        } catch (OverlappingFileLockException e) { // held by this JVM: another broker here uses the directory
            lock = null;
        }
        if (lock == null) {
            channel.close();
            throw new IOException("Cannot lock " + file + ": another broker is using the log directory " + logDir);
        }
        channels.add(channel);
        files.add(file);
    }

    /**
     * Releases the locks (closing a channel releases its lock) and deletes the files; again does nothing. Every
     * directory is released whatever fails for another, so that none stays locked for the JVM's life: the first
     * failure is thrown, the others suppressed in it.
     */
    @Override
    public void close() throws IOException {
        IOException failure = null;
        try {
            for (int i = 0; i < channels.size(); i++) {
                Path file = files.get(i);
                failure = attempt(channels.get(i)::close, failure);
                failure = attempt(() -> Files.deleteIfExists(file), failure);
            }
        } finally {
            channels.clear();
            files.clear();
        }
        if (failure != null) {
            throw failure;
        }
    }

    private interface Step {
        void run() throws IOException;
    }

    /** Runs a step of the close: its failure is the first one, or suppressed in the first. */
    private static IOException attempt(Step step, IOException failure) {
        try {
            step.run();
            return failure;
        } catch (IOException e) {
            if (failure == null) {
                return e;
            }
            failure.addSuppressed(e);
            return failure;
        }
    }
}
