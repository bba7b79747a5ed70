package io.minibroker.protocol.record;

/**
 * What a leader checks of a record without keeping its bytes ({@link SkimmedRecords}): where it is, when it was
 * made, and how long its key and value are ({@code -1} for null).
 */
public record SkimmedRecord(long offset, long timestamp, int keyLength, int valueLength) {

    public boolean hasKey() {
        return keyLength >= 0;
    }
}
