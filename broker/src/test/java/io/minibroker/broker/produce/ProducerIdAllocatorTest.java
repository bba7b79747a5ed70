package io.minibroker.broker.produce;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;

class ProducerIdAllocatorTest {

    @Test
    void aSingleNodeStartsAtZeroAndNeverRepeatsAcrossRestarts(@TempDir Path dir) throws Exception {
        ProducerIdAllocator first = new ProducerIdAllocator(dir, 0);
        assertThat(first.next()).isZero();
        assertThat(first.next()).isEqualTo(1);

        assertThat(new ProducerIdAllocator(dir, 0).next()).as("the rest of the block is skipped")
                .isEqualTo(ProducerIdAllocator.BLOCK_SIZE);
    }

    @Test
    void clusterNodesHandOutIdsFromRangesThatNeverMeet(@TempDir Path dir) throws Exception {
        long fromNode1 = new ProducerIdAllocator(Files.createDirectories(dir.resolve("node-1")),
                ProducerIdAllocator.firstIdOf(1)).next();
        long fromNode2 = new ProducerIdAllocator(Files.createDirectories(dir.resolve("node-2")),
                ProducerIdAllocator.firstIdOf(2)).next();

        assertThat(fromNode1).isEqualTo(1L << 40);
        assertThat(fromNode2).isEqualTo(2L << 40);
        assertThat(ProducerIdAllocator.firstIdOf(0)).isZero();
    }
}
