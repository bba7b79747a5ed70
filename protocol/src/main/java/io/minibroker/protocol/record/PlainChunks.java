package io.minibroker.protocol.record;

/**
 * A batch's records decompressed a piece at a time (an LZ4 block, a snappy chunk, a slice of a gzip or zstd
 * stream), so that a reader that looks at each record once need not hold them all: {@link SkimmedRecords} reads
 * through a batch holding one piece.
 */
interface PlainChunks extends AutoCloseable {

    /**
     * Appends the next piece of the decompressed records to {@code out}, which may then hold at most
     * {@code maxBytes} (CORRUPT_MESSAGE past that); false, appending nothing, at the end.
     */
    boolean readBlock(io.netty.buffer.ByteBuf out, int maxBytes);

    /** Gives back what the codec holds (a zstd stream's native context); nothing for the block codecs. */
    @Override
    default void close() {
    }
}
