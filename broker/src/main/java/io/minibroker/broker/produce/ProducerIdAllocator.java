package io.minibroker.broker.produce;

import io.minibroker.broker.log.DurableFiles;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Hands out producer ids that are never given twice, across restarts too: ids are reserved in blocks of
 * {@value #BLOCK_SIZE} (as Kafka's controller hands out blocks), and the end of the reserved block is written
 * to disk (atomically, fsynced) before any id from it is used. A restart skips the rest of a block.
 *
 * <p>In a cluster every broker hands out ids, so each takes them from its own range, {@link #firstIdOf} its node
 * id: where Kafka's brokers ask the controller for blocks (AllocateProducerIds), ours never meet, so two producers
 * never share an id, whichever broker they asked.
 */
public final class ProducerIdAllocator {

    static final int BLOCK_SIZE = 1000;
    /** Ids per node in a cluster: 2^40, a thousand billion. */
    private static final int NODE_RANGE_BITS = 40;
    static final String FILE = ".minibroker-producer-id-block";

    private final Path file;
    private long nextId;
    private long blockEnd;

    /** @param firstId the least id this broker may hand out: 0 on a single node, {@link #firstIdOf} in a cluster */
    public ProducerIdAllocator(Path firstLogDir, long firstId) throws IOException {
        this.file = firstLogDir.resolve(FILE);
        long reserved = Files.exists(file) ? Long.parseLong(Files.readString(file, StandardCharsets.UTF_8).trim()) : 0;
        this.nextId = Math.max(reserved, firstId);
        this.blockEnd = nextId;
    }

    /** Where a cluster node's range of ids starts. */
    public static long firstIdOf(int nodeId) {
        return (long) nodeId << NODE_RANGE_BITS;
    }

    public synchronized long next() {
        if (nextId == blockEnd) {
            reserve(blockEnd + BLOCK_SIZE);
        }
        return nextId++;
    }

    private void reserve(long end) {
        try {
            DurableFiles.writeAtomically(file, Long.toString(end));
        } catch (IOException e) {
            throw new UncheckedIOException("cannot reserve producer ids in " + file, e);
        }
        blockEnd = end;
    }
}
