package dev.wharf.benchmarks.sbs;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Bytes the machine's disks have written so far, from Linux's block-device statistics: what a durable workload
 * costs the disk (data, file-system journal and metadata together), beside what it puts. Whole disks only
 * (partitions would count twice); loop and RAM devices are left out.
 */
final class DiskWrites {

    private static final Path STATS = Path.of("/proc/diskstats");
    private static final int SECTOR = 512;

    private DiskWrites() {
    }

    /** Bytes written since boot, or -1 where the statistics cannot be read (not Linux). */
    static long bytesWritten() {
        try {
            long sectors = 0;
            for (String line : Files.readAllLines(STATS)) {
                String[] f = line.trim().split("\\s+");
                if (f.length > 9 && !f[2].startsWith("loop") && !f[2].startsWith("ram")
                        && Files.exists(Path.of("/sys/block", f[2]))) {
                    sectors += Long.parseLong(f[9]);
                }
            }
            return sectors * SECTOR;
        } catch (IOException | RuntimeException e) {
            return -1;
        }
    }
}
