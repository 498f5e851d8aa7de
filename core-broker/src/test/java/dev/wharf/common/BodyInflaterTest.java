package dev.wharf.common;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.sun.management.ThreadMXBean;
import dev.wharf.common.message.BodyInflater;
import dev.wharf.common.message.BodyInflater.BodyInflateException;
import dev.wharf.common.message.MessageDecoder;
import java.io.ByteArrayInputStream;
import java.lang.management.ManagementFactory;
import java.util.Arrays;
import java.util.Random;
import java.util.zip.InflaterInputStream;
import org.junit.jupiter.api.Test;

class BodyInflaterTest {

    private static final int MIB = 1024 * 1024;

    @Test
    void aBombStopsAtTheLimitWithoutAllocatingWhatItClaims() {
        byte[] bomb = ZlibBombs.zeros(1024);
        assertThat(bomb.length).as("1 GiB stored in about 1 MB").isLessThan(2 * MIB);
        ThreadMXBean threads = (ThreadMXBean) ManagementFactory.getThreadMXBean();
        long before = threads.getCurrentThreadAllocatedBytes();
        assertThat(BodyInflater.inflatedLength(bomb, 4 * MIB)).isEqualTo(BodyInflater.TOO_LARGE);
        assertThatThrownBy(() -> BodyInflater.inflate(bomb, 4 * MIB))
                .isInstanceOfSatisfying(BodyInflateException.class, e -> assertThat(e.tooLarge()).isTrue())
                .hasMessageContaining("inflates to more than 4194304 bytes");
        long allocated = threads.getCurrentThreadAllocatedBytes() - before;
        assertThat(allocated).isLessThan(32L * MIB);
    }

    @Test
    void theTestBombsAreValidZlibStreams() throws Exception {
        byte[] bomb = ZlibBombs.zeros(8);
        byte[] inflated = new InflaterInputStream(new ByteArrayInputStream(bomb)).readAllBytes();
        assertThat(inflated).hasSize(8 * MIB).containsOnly(0);
        assertThat(BodyInflater.inflatedLength(bomb, 8 * MIB)).isEqualTo(8 * MIB);
    }

    @Test
    void bodiesWithinTheLimitInflateExactly() {
        byte[] body = new byte[3 * MIB];
        byte[] noise = new byte[MIB];
        new Random(7).nextBytes(noise);
        System.arraycopy(noise, 0, body, 0, noise.length);
        Arrays.fill(body, MIB, body.length, (byte) 'x');
        byte[] packed = MessageDecoder.deflate(body, 5);
        assertThat(BodyInflater.inflatedLength(packed, body.length)).isEqualTo(body.length);
        assertThat(BodyInflater.inflate(packed, body.length)).isEqualTo(body);
        assertThat(BodyInflater.inflatedLength(packed, body.length - 1)).isEqualTo(BodyInflater.TOO_LARGE);
    }

    @Test
    void truncatedAndGarbageBodiesAreCorrupt() {
        byte[] packed = MessageDecoder.deflate(new byte[100_000], 5);
        byte[] truncated = Arrays.copyOf(packed, packed.length / 2);
        assertThat(BodyInflater.inflatedLength(truncated, MIB)).isEqualTo(BodyInflater.CORRUPT);
        assertThatThrownBy(() -> BodyInflater.inflate(truncated, MIB))
                .isInstanceOfSatisfying(BodyInflateException.class, e -> assertThat(e.tooLarge()).isFalse())
                .hasMessageContaining("truncated or corrupt");
        byte[] garbage = "definitely not zlib".getBytes();
        assertThat(BodyInflater.inflatedLength(garbage, MIB)).isEqualTo(BodyInflater.CORRUPT);
        assertThatThrownBy(() -> BodyInflater.inflate(garbage, MIB)).isInstanceOf(BodyInflateException.class);
        assertThat(BodyInflater.inflatedLength(new byte[0], MIB)).isEqualTo(BodyInflater.CORRUPT);
        // the thread's inflater is reset after a failure: the next body inflates fine
        assertThat(BodyInflater.inflate(packed, MIB)).hasSize(100_000);
    }
}
