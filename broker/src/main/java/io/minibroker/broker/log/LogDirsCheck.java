package io.minibroker.broker.log;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;

/** A check of the log directories run by {@link LogManager#startup(LogDirsCheck)} once it holds their locks. */
@FunctionalInterface
public interface LogDirsCheck {

    /** Throws to refuse the start. */
    void check(List<Path> logDirs) throws IOException;
}
