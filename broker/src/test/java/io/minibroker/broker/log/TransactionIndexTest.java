package io.minibroker.broker.log;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The {@code .txnindex} file: Kafka's 34-byte AbortedTxn entries, written, read back, cut, and searched. */
class TransactionIndexTest {

    @TempDir
    Path dir;

    private Path path() {
        return dir.resolve("00000000000000000000.txnindex");
    }

    @Test
    void noFileUntilTheFirstEntryThenKafkasLayout() throws IOException {
        try (TransactionIndex index = TransactionIndex.open(path())) {
            assertThat(path()).doesNotExist();
            index.append(new AbortedTxn(7, 10, 12, 11));
            index.append(new AbortedTxn(8, 11, 20, 21));
        }
        byte[] bytes = Files.readAllBytes(path());
        assertThat(bytes).hasSize(68);
        ByteBuffer first = ByteBuffer.wrap(bytes, 0, 34);
        assertThat(first.getShort()).isEqualTo((short) 0); // version
        assertThat(first.getLong()).isEqualTo(7); // producer id
        assertThat(first.getLong()).isEqualTo(10); // first offset
        assertThat(first.getLong()).isEqualTo(12); // last offset: the marker's
        assertThat(first.getLong()).isEqualTo(11); // last stable offset
        try (TransactionIndex reopened = TransactionIndex.open(path())) {
            assertThat(reopened.entries()).containsExactly(new AbortedTxn(7, 10, 12, 11), new AbortedTxn(8, 11, 20, 21));
        }
    }

    @Test
    void aReopenedIndexHoldsNoDescriptorUntilItsNextChange() throws IOException {
        try (TransactionIndex index = TransactionIndex.open(path())) {
            assertThat(index.exists()).isFalse();
            index.append(new AbortedTxn(1, 0, 5, 6));
            index.append(new AbortedTxn(2, 3, 9, 10));
            assertThat(index.isOpen()).isTrue();
        }
        try (TransactionIndex reopened = TransactionIndex.open(path())) {
            assertThat(reopened.exists()).isTrue();
            assertThat(reopened.isOpen()).isFalse();
            reopened.flush(); // nothing to force, and no failure
            reopened.truncateTo(9);
            assertThat(reopened.isOpen()).isTrue();
        }
        assertThat(Files.size(path())).isEqualTo(34);
    }

    @Test
    void truncationDropsTheEntriesOfMarkersAtOrPastTheOffset() throws IOException {
        try (TransactionIndex index = TransactionIndex.open(path())) {
            index.append(new AbortedTxn(1, 0, 5, 6));
            index.append(new AbortedTxn(2, 3, 9, 10));
            index.append(new AbortedTxn(3, 8, 15, 16));
            index.truncateTo(9);
            assertThat(index.entries()).extracting(AbortedTxn::producerId).containsExactly(1L);
            index.append(new AbortedTxn(4, 7, 12, 13)); // appends go on where the cut left the file
        }
        assertThat(Files.size(path())).isEqualTo(68);
        try (TransactionIndex reopened = TransactionIndex.open(path())) {
            assertThat(reopened.entries()).extracting(AbortedTxn::producerId).containsExactly(1L, 4L);
        }
    }

    @Test
    void aTornTailIsCutOnOpening() throws IOException {
        try (TransactionIndex index = TransactionIndex.open(path())) {
            index.append(new AbortedTxn(1, 0, 5, 6));
        }
        Files.write(path(), new byte[] {0, 0, 0, 0, 0, 9}, StandardOpenOption.APPEND);
        try (TransactionIndex reopened = TransactionIndex.open(path())) {
            assertThat(reopened.entries()).containsExactly(new AbortedTxn(1, 0, 5, 6));
        }
        assertThat(Files.size(path())).isEqualTo(34);
    }

    @Test
    void entriesMustFollowTheirMarkersOrder() throws IOException {
        try (TransactionIndex index = TransactionIndex.open(path())) {
            index.append(new AbortedTxn(1, 0, 5, 6));
            assertThatThrownBy(() -> index.append(new AbortedTxn(2, 0, 5, 6)))
                    .isInstanceOf(IllegalArgumentException.class);
        }
    }

    @Test
    void aSearchNamesTheTransactionsOverlappingTheRangeAndStopsAtTheFirstStableOnePastIt() throws IOException {
        try (TransactionIndex index = TransactionIndex.open(path())) {
            index.append(new AbortedTxn(1, 0, 5, 6)); // ends before the range
            index.append(new AbortedTxn(2, 4, 12, 13)); // overlaps
            index.append(new AbortedTxn(3, 20, 30, 31)); // starts at the bound: stable past it, the search stops
            List<AbortedTxn> found = new ArrayList<>();
            assertThat(index.collect(6, 20, found)).isTrue();
            assertThat(found).extracting(AbortedTxn::producerId).containsExactly(2L);
            found.clear();
            assertThat(index.collect(6, 40, found)).isFalse(); // a later segment may hold more
            assertThat(found).extracting(AbortedTxn::producerId).containsExactly(2L, 3L);
        }
    }
}
