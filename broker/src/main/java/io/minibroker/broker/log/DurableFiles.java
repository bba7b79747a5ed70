package io.minibroker.broker.log;

import java.io.IOException;
import java.io.Writer;
import java.nio.channels.Channels;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFilePermissions;

/**
 * Small files that must survive a crash whole: checkpoints, the topics' and the controller's stores, SCRAM
 * credentials. Each is written to a temporary file, forced to disk, renamed over the old one, and then its
 * directory is forced too, since without that a rename can be lost on a power failure (ext4 and others): a reader
 * finds the old contents or the new, never a torn file.
 */
public final class DurableFiles {

    private DurableFiles() {
    }

    /** Replaces {@code path}'s contents with {@code text} (UTF-8), as the class comment describes. */
    public static void writeAtomically(Path path, String text) throws IOException {
        write(path, text, false);
    }

    /**
     * The same for secrets: the file is readable and writable by the broker's owner only, where the file system has
     * POSIX permissions, and is so before the first byte is written (the rename keeps them).
     */
    public static void writeAtomicallyOwnerOnly(Path path, String text) throws IOException {
        write(path, text, true);
    }

    private static void write(Path path, String text, boolean ownerOnly) throws IOException {
        Path tmp = path.resolveSibling(path.getFileName() + ".tmp");
        try (FileChannel channel = FileChannel.open(tmp, StandardOpenOption.CREATE, StandardOpenOption.WRITE,
                StandardOpenOption.TRUNCATE_EXISTING);
             Writer writer = Channels.newWriter(channel, StandardCharsets.UTF_8)) {
            if (ownerOnly) {
                restrictToOwner(tmp);
            }
            writer.write(text);
            writer.flush();
            channel.force(true);
        }
        Files.move(tmp, path, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
        fsyncDirectory(path.getParent());
    }

    private static void restrictToOwner(Path file) throws IOException {
        try {
            Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rw-------"));
        } catch (UnsupportedOperationException e) {
            // not a POSIX file system: its own access rules apply
        }
    }

    /** Forces a directory's entries (a file created, renamed or deleted in it) to disk. */
    public static void fsyncDirectory(Path dir) throws IOException {
        try (FileChannel channel = FileChannel.open(dir, StandardOpenOption.READ)) {
            channel.force(true);
        }
    }
}
