package io.minibroker.broker.log;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Closing the locks releases every directory whatever fails for one of them: a directory after the failing one is
 * free for the next broker in this JVM, not locked for the JVM's life.
 */
class LogDirLocksTest {

    @TempDir
    Path root;

    @Test
    void aFailureToDeleteOneLockFileStillReleasesTheOtherDirectories() throws Exception {
        Path first = root.resolve("first");
        Path second = root.resolve("second");
        LogDirLocks locks = LogDirLocks.acquire(List.of(first, second));
        // A non-empty directory where the first .lock was: its delete fails (whoever runs the test, root too).
        Path lockFile = first.resolve(LogDirLocks.FILE_NAME);
        Files.delete(lockFile);
        Files.createDirectories(lockFile.resolve("in-the-way"));

        assertThatThrownBy(locks::close).isInstanceOf(IOException.class);

        LogDirLocks.acquire(List.of(second)).close();
    }
}
