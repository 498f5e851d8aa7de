package dev.wharf.benchmarks.load;

import java.io.PrintWriter;
import java.util.List;
import java.util.Locale;

/** Prints the results of runs: one block per run, and a comparison with ratios to the first run. */
final class LoadReport {

    private static final String ROW = "%-14s %11s %10s %10s %10s %10s %13s %10s %10s %10s%n";

    private LoadReport() {
    }

    static void result(PrintWriter out, LoadResult r) {
        out.printf(Locale.ROOT, "== %s: %.1f s measured; load average %.1f before, %.1f after (%d CPUs)%n", r.label(),
                r.seconds(), r.loadBefore(), r.loadAfter(), Runtime.getRuntime().availableProcessors());
        if (r.send().count() > 0 || r.errors() > 0) {
            out.printf(Locale.ROOT, "send     %,12d msgs  %,10.0f msg/s  %7.2f MiB/s  errors %d%s%n", r.sent(),
                    r.sendTps(), r.sendMibPerSecond(), r.errors(),
                    r.firstError() == null ? "" : " (first: " + r.firstError() + ")");
            out.printf(Locale.ROOT, "         latency ms   %s%n", percentiles(r.send(), true));
        }
        if (r.endToEnd().count() > 0 || r.consumed() > 0) {
            out.printf(Locale.ROOT, "consume  %,12d msgs  %,10.0f msg/s  backlog at end %d%n", r.consumed(),
                    r.consumeTps(), r.backlog());
            out.printf(Locale.ROOT, "         end-to-end ms %s%n", percentiles(r.endToEnd(), false));
        }
        out.flush();
    }

    /** @param micros whether the histogram holds microseconds (send) or milliseconds (end to end) */
    private static String percentiles(LatencyHistogram h, boolean micros) {
        return String.format(Locale.ROOT, "p50 %s  p99 %s  p999 %s  max %s  (%,d samples)",
                micros ? ms(h.percentile(50)) : h.percentile(50), micros ? ms(h.percentile(99)) : h.percentile(99),
                micros ? ms(h.percentile(99.9)) : h.percentile(99.9), micros ? ms(h.max()) : h.max(), h.count());
    }

    /** The runs side by side, then each run's ratio to the first (the baseline). */
    static void comparison(PrintWriter out, List<LoadResult> results) {
        if (results.size() < 2) {
            return;
        }
        out.println();
        out.printf(Locale.ROOT, ROW, "", "send msg/s", "p50 ms", "p99 ms", "p999 ms", "MiB/s", "consume msg/s",
                "e2e p50 ms", "e2e p99", "e2e p999");
        for (LoadResult r : results) {
            out.printf(Locale.ROOT, ROW, r.label(), String.format(Locale.ROOT, "%,.0f", r.sendTps()),
                    ms(r.send().percentile(50)), ms(r.send().percentile(99)), ms(r.send().percentile(99.9)),
                    String.format(Locale.ROOT, "%.2f", r.sendMibPerSecond()),
                    String.format(Locale.ROOT, "%,.0f", r.consumeTps()), r.endToEnd().percentile(50),
                    r.endToEnd().percentile(99), r.endToEnd().percentile(99.9));
        }
        LoadResult base = results.get(0);
        for (LoadResult r : results.subList(1, results.size())) {
            out.printf(Locale.ROOT, ROW, r.label() + " / " + base.label(), ratio(r.sendTps(), base.sendTps()),
                    ratio(r.send().percentile(50), base.send().percentile(50)),
                    ratio(r.send().percentile(99), base.send().percentile(99)),
                    ratio(r.send().percentile(99.9), base.send().percentile(99.9)),
                    ratio(r.sendMibPerSecond(), base.sendMibPerSecond()), ratio(r.consumeTps(), base.consumeTps()),
                    ratio(r.endToEnd().percentile(50), base.endToEnd().percentile(50)),
                    ratio(r.endToEnd().percentile(99), base.endToEnd().percentile(99)),
                    ratio(r.endToEnd().percentile(99.9), base.endToEnd().percentile(99.9)));
        }
        out.flush();
    }

    /** Microseconds as milliseconds. */
    static String ms(long micros) {
        return String.format(Locale.ROOT, micros < 10_000 ? "%.3f" : "%.1f", micros / 1000.0);
    }

    static String ratio(double value, double base) {
        return base == 0 ? "-" : String.format(Locale.ROOT, "%.2fx", value / base);
    }
}
