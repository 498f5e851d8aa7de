package dev.wharf.benchmarks.soak;

import dev.wharf.store.recovery.StoreCheckpoint;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.stream.Stream;

/**
 * Damages the commit log of a stopped broker below its flushed checkpoint (media corruption, not a torn tail):
 * single-byte flips or a block of random garbage, at seeded random positions, preferably in the part the
 * consumers have not read yet, so that what the damage costs is visible to them.
 */
final class SoakDamage {

    /** One damaged byte range of the commit log (physical offsets). */
    record Range(long offset, int length) {
        boolean overlaps(long otherOffset, long otherLength) {
            return offset < otherOffset + otherLength && otherOffset < offset + length;
        }
    }

    /** What one episode did. */
    record Episode(List<Range> ranges, long safeOffset, boolean inBacklog) {
        long bytes() {
            return ranges.stream().mapToLong(Range::length).sum();
        }
    }

    static final int FLIPS = 3;
    static final int BLOCK = 4096;
    /** Distance kept from the checkpoint: everything damaged lies clearly below it. */
    private static final long MARGIN = 2 * BLOCK;
    /** The smallest region worth damaging: more than a few records, so positions vary. */
    static final long MIN_REGION = 16 * BLOCK;

    private final Path commitLogDir;
    private final long fileSize;
    private final Random random;

    SoakDamage(Path storeRoot, long fileSize, long seed) {
        this.commitLogDir = storeRoot.resolve("commitlog");
        this.fileSize = fileSize;
        this.random = new Random(seed);
    }

    /** The checkpoint's safe offset: the commit log (and what was derived from it) was on disk below it. */
    static long safeOffset(Path storeRoot) throws IOException {
        try (StoreCheckpoint checkpoint = StoreCheckpoint.open(storeRoot)) {
            return checkpoint.wasLoadedValid() ? checkpoint.getSafeOffset() : -1;
        }
    }

    /**
     * Damages the log of the stopped store: {@value #FLIPS} flips or one {@value #BLOCK}-byte garbage block,
     * within {@code [backlogStart, safe offset)} when that region is large enough, else anywhere below the safe
     * offset. Returns null when the log is still too short to damage below its checkpoint.
     */
    Episode damage(Path storeRoot, long backlogStart, boolean block) throws IOException {
        long safe = safeOffset(storeRoot);
        long first = firstFileOffset();
        if (safe < 0 || first < 0) {
            return null;
        }
        long hi = safe - MARGIN;
        long lo = Math.max(first, backlogStart);
        boolean inBacklog = hi - lo >= MIN_REGION;
        if (!inBacklog) {
            lo = first;
        }
        if (hi - lo < MIN_REGION) {
            return null;
        }
        List<Range> ranges = new ArrayList<>();
        if (block) {
            long at = lo + (long) (random.nextDouble() * (hi - lo - BLOCK));
            long fileEnd = at - at % fileSize + fileSize;
            int length = (int) Math.min(BLOCK, fileEnd - at);
            byte[] garbage = new byte[length];
            random.nextBytes(garbage);
            write(at, garbage);
            ranges.add(new Range(at, length));
        } else {
            for (int i = 0; i < FLIPS; i++) {
                long at = lo + (long) (random.nextDouble() * (hi - lo));
                byte[] one = read(at);
                one[0] ^= (byte) (1 + random.nextInt(255));
                write(at, one);
                ranges.add(new Range(at, 1));
            }
        }
        return new Episode(ranges, safe, inBacklog);
    }

    private long firstFileOffset() throws IOException {
        if (!Files.isDirectory(commitLogDir)) {
            return -1;
        }
        try (Stream<Path> files = Files.list(commitLogDir)) {
            return files.map(p -> p.getFileName().toString()).filter(n -> n.matches("\\d{20}"))
                    .mapToLong(Long::parseLong).min().orElse(-1);
        }
    }

    private Path fileOf(long offset) {
        return commitLogDir.resolve(String.format("%020d", offset - offset % fileSize));
    }

    private byte[] read(long offset) throws IOException {
        try (FileChannel ch = FileChannel.open(fileOf(offset), StandardOpenOption.READ)) {
            ByteBuffer b = ByteBuffer.allocate(1);
            ch.read(b, offset % fileSize);
            return b.array();
        }
    }

    private void write(long offset, byte[] bytes) throws IOException {
        try (FileChannel ch = FileChannel.open(fileOf(offset), StandardOpenOption.WRITE)) {
            ByteBuffer b = ByteBuffer.wrap(bytes);
            long position = offset % fileSize;
            while (b.hasRemaining()) {
                position += ch.write(b, position);
            }
            ch.force(false);
        }
    }
}
