package io.minibroker.broker.log;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/** Atomic replacement of small files, and the owner-only variant for secrets. */
class DurableFilesTest {

    @TempDir
    Path dir;

    @Test
    void replacesTheContentsAndLeavesNoTemporaryFile() throws Exception {
        Path file = dir.resolve("store");
        DurableFiles.writeAtomically(file, "one\n");
        DurableFiles.writeAtomically(file, "two\n");
        assertThat(Files.readString(file)).isEqualTo("two\n");
        assertThat(dir.resolve("store.tmp")).doesNotExist();
    }

    @Test
    void anOwnerOnlyFileIsNeverReadableByOthersEvenWhenALeftoverTemporaryFileWas() throws Exception {
        assumeTrue(FileSystems.getDefault().supportedFileAttributeViews().contains("posix"), "POSIX permissions");
        Path file = dir.resolve("secrets");
        Path leftover = Files.writeString(dir.resolve("secrets.tmp"), "from a crash");
        Files.setPosixFilePermissions(leftover, PosixFilePermissions.fromString("rw-r--r--"));

        DurableFiles.writeAtomicallyOwnerOnly(file, "key\n");

        assertThat(Files.readString(file)).isEqualTo("key\n");
        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(file))).isEqualTo("rw-------");
    }
}
