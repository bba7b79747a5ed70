package io.minibroker.broker.log;

import io.minibroker.protocol.record.CompressionType;

import java.util.Arrays;
import java.util.Optional;

/**
 * A topic's {@code compression.type} (and the broker's default for it), under Kafka's names: the codec the log
 * stores batches in, or {@code producer} to keep each batch as its producer compressed it.
 */
public enum BrokerCompressionType {
    UNCOMPRESSED("uncompressed", CompressionType.NONE),
    ZSTD("zstd", CompressionType.ZSTD),
    LZ4("lz4", CompressionType.LZ4),
    SNAPPY("snappy", CompressionType.SNAPPY),
    GZIP("gzip", CompressionType.GZIP),
    PRODUCER("producer", null);

    private final String configName;
    private final CompressionType codec;

    BrokerCompressionType(String configName, CompressionType codec) {
        this.configName = configName;
        this.codec = codec;
    }

    /** The value as Kafka's configs spell it. */
    public String configName() {
        return configName;
    }

    /** The codec a batch the producer compressed with {@code producerCodec} is stored in. */
    public CompressionType targetFor(CompressionType producerCodec) {
        return codec == null ? producerCodec : codec;
    }

    /** The type named {@code configName} exactly, as Kafka's validator matches it. */
    public static Optional<BrokerCompressionType> forConfigName(String configName) {
        return Arrays.stream(values()).filter(type -> type.configName.equals(configName)).findFirst();
    }

    /** Every config name, in Kafka's order. */
    public static String[] configNames() {
        return Arrays.stream(values()).map(BrokerCompressionType::configName).toArray(String[]::new);
    }
}
