package dev.wharf.broker.ha;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;

/**
 * CPU time per thread of a process, read from Linux's /proc (for measurements run by hand): on a machine whose cores
 * are all busy, throughput follows CPU spent per message, so the difference of two snapshots, per thread kind, shows
 * where a configuration spends more. Threads are grouped by name with digits folded (the kernel keeps the first 15
 * characters of a Java thread's name). Empty where /proc is missing.
 */
final class ThreadCpu {

    /** Clock ticks per second of /proc's utime and stime (USER_HZ, 100 on Linux). */
    private static final double TICKS_PER_SECOND = 100.0;

    private ThreadCpu() {
    }

    /** Thread kind to CPU ticks (user + system) used so far by the threads of process {@code pid} alive now. */
    static Map<String, Long> snapshot(long pid) {
        Map<String, Long> out = new HashMap<>();
        Path tasks = Path.of("/proc", Long.toString(pid), "task");
        if (!Files.isDirectory(tasks)) {
            return out;
        }
        List<Path> threads;
        try (Stream<Path> s = Files.list(tasks)) {
            threads = s.toList();
        } catch (IOException e) {
            return out;
        }
        for (Path t : threads) {
            try {
                String stat = Files.readString(t.resolve("stat"), StandardCharsets.US_ASCII);
                int open = stat.indexOf('(');
                int close = stat.lastIndexOf(')');
                String name = stat.substring(open + 1, close).replaceAll("[0-9]+", "#");
                String[] f = stat.substring(close + 2).split(" ");
                // after "pid (comm) ": state is f[0], utime f[11], stime f[12]
                long ticks = Long.parseLong(f[11]) + Long.parseLong(f[12]);
                out.merge(t.getFileName() + " " + name, ticks, Long::sum);
            } catch (IOException | RuntimeException e) {
                // the thread ended meanwhile
            }
        }
        return out;
    }

    /**
     * Prints the CPU seconds used between two snapshots (threads keyed by id, so ones that ended are left out),
     * per thread kind, the largest first, and per 1,000 {@code units}.
     */
    static String report(String label, Map<String, Long> before, Map<String, Long> after, long units) {
        Map<String, Long> perKind = new TreeMap<>();
        long total = 0;
        for (Map.Entry<String, Long> e : after.entrySet()) {
            long delta = e.getValue() - before.getOrDefault(e.getKey(), 0L);
            String kind = e.getKey().substring(e.getKey().indexOf(' ') + 1);
            perKind.merge(kind, delta, Long::sum);
            total += delta;
        }
        List<Map.Entry<String, Long>> sorted = new ArrayList<>(perKind.entrySet());
        sorted.sort((a, b) -> Long.compare(b.getValue(), a.getValue()));
        StringBuilder sb = new StringBuilder();
        sb.append(String.format("CPU %s: %.2f s in all, %.1f ms per 1000 sends;", label, total / TICKS_PER_SECOND,
                units == 0 ? 0 : total / TICKS_PER_SECOND * 1e6 / units));
        for (int i = 0; i < Math.min(8, sorted.size()); i++) {
            if (sorted.get(i).getValue() > 0) {
                sb.append(String.format(" %s %.2f,", sorted.get(i).getKey(), sorted.get(i).getValue()
                        / TICKS_PER_SECOND));
            }
        }
        return sb.toString();
    }
}
