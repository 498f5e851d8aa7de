package dev.wharf.benchmarks;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Comparator;
import java.util.stream.Stream;

/** What every benchmark here needs around its measurement: medians of rounds, CPU time, removing run folders. */
public final class Bench {

    private Bench() {
    }

    /** A benchmark's whole run. */
    @FunctionalInterface
    public interface Run {
        void run() throws Exception;
    }

    /**
     * Runs a benchmark, removes {@code temporaryDir} afterwards (null: nothing to remove) and ends the JVM, since
     * client and broker threads that did not stop must not keep it alive.
     */
    public static void runThenExit(Run run, Path temporaryDir) throws Exception {
        try {
            run.run();
        } finally {
            if (temporaryDir != null) {
                deleteTree(temporaryDir);
            }
        }
        System.exit(0);
    }

    /** The median; the mean of the middle two for an even count. */
    public static double median(double[] values) {
        if (values.length == 0) {
            throw new IllegalArgumentException("no values to take the median of");
        }
        double[] v = values.clone();
        Arrays.sort(v);
        return v.length % 2 == 1 ? v[v.length / 2] : (v[v.length / 2 - 1] + v[v.length / 2]) / 2;
    }

    /** CPU time of this process so far (every thread: clients and in-JVM servers), or 0 where the JVM does not tell. */
    public static long processCpuNanos() {
        return ManagementFactory.getOperatingSystemMXBean() instanceof com.sun.management.OperatingSystemMXBean os
                ? os.getProcessCpuTime() : 0;
    }

    /** Deletes a folder and everything in it; nothing when it does not exist. */
    public static void deleteTree(Path root) throws IOException {
        if (!Files.exists(root)) {
            return;
        }
        try (Stream<Path> paths = Files.walk(root)) {
            for (Path p : paths.sorted(Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(p);
            }
        }
    }
}
