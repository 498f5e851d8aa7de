package dev.wharf.benchmarks.sbs;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.MappedByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * The disk's own rate of small durable appends, for reading the durable workloads beside it: 1 KiB records written
 * with pwrite into a file whose blocks were allocated and forced beforehand, each then forced through the file's
 * mapping (msync of its range), as a lone SYNC_FLUSH writer's commit log is. No blocking producer can be
 * acknowledged faster than one such force per send.
 */
final class DiskForceRate {

    private static final int RECORD = 1024;
    private static final int FILE = 64 * 1024 * 1024;

    private DiskForceRate() {
    }

    /** Forces per second over {@code seconds}, in a scratch file under {@code dir} (deleted afterwards). */
    static double measure(Path dir, double seconds) throws IOException {
        Files.createDirectories(dir);
        Path file = Files.createTempFile(dir, "force-rate", ".bin");
        try (FileChannel ch = FileChannel.open(file, StandardOpenOption.READ, StandardOpenOption.WRITE)) {
            ByteBuffer zeros = ByteBuffer.allocateDirect(1024 * 1024);
            for (long pos = 0; pos < FILE; pos += zeros.capacity()) {
                zeros.clear();
                while (zeros.hasRemaining()) {
                    ch.write(zeros, pos + zeros.position());
                }
            }
            ch.force(false);
            MappedByteBuffer mapped = ch.map(FileChannel.MapMode.READ_WRITE, 0, FILE);
            ByteBuffer record = ByteBuffer.allocateDirect(RECORD);
            long start = System.nanoTime();
            long end = start + (long) (seconds * 1e9);
            int forces = 0;
            for (int pos = 0; pos + RECORD <= FILE && System.nanoTime() < end; pos += RECORD) {
                record.clear();
                while (record.hasRemaining()) {
                    ch.write(record, pos + record.position());
                }
                mapped.force(pos, RECORD);
                forces++;
            }
            return forces / ((System.nanoTime() - start) / 1e9);
        } finally {
            Files.deleteIfExists(file);
        }
    }
}
