package dev.wharf.benchmarks.sbs;

import dev.wharf.benchmarks.Bench;
import java.io.PrintStream;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The rates of every round, by provider and workload, and what is read from them: medians per provider, and
 * for each pair of a Wharf and an Artemis configuration the ratio of their medians and the median of their
 * same-round ratios (the figure least moved by a machine whose load changes from round to round).
 */
final class Results {

    static final List<String> WORKLOADS = List.of("send1", "send4", "sendtx", "drain");

    /** The comparisons printed when both of their providers ran: label, Wharf provider, Artemis provider. */
    private static final List<String[]> PAIRS = List.of(
            new String[] {"durable", "wharf-sync", "artemis-tuned"},
            new String[] {"durable, delivery counts forced", "wharf-sync-counts", "artemis-tuned"},
            new String[] {"page cache", "wharf-async", "artemis-nosync"});

    /** provider → workload → rate per round, in round order. */
    private final Map<String, Map<String, List<Double>>> rates = new LinkedHashMap<>();

    void add(String provider, String workload, double perSecond) {
        rates.computeIfAbsent(provider, p -> new LinkedHashMap<>())
                .computeIfAbsent(workload, w -> new ArrayList<>()).add(perSecond);
    }

    /** The rates of one provider's workload, in round order (empty when it did not run). */
    List<Double> rates(String provider, String workload) {
        return rates.getOrDefault(provider, Map.of()).getOrDefault(workload, List.of());
    }

    double median(String provider, String workload) {
        return median(rates(provider, workload));
    }

    /** The median over rounds of Wharf's rate ÷ Artemis's rate in the same round. */
    double medianOfRoundRatios(String wharf, String artemis, String workload) {
        List<Double> w = rates(wharf, workload);
        List<Double> a = rates(artemis, workload);
        List<Double> ratios = new ArrayList<>();
        for (int i = 0; i < Math.min(w.size(), a.size()); i++) {
            ratios.add(a.get(i) == 0 ? Double.NaN : w.get(i) / a.get(i));
        }
        return median(ratios);
    }

    static double median(List<Double> values) {
        return values.isEmpty() ? Double.NaN : Bench.median(values.stream().mapToDouble(Double::doubleValue).toArray());
    }

    /** Prints the medians per provider and, as a Markdown table, the ratios of each pair that ran. */
    void print(PrintStream out) {
        out.println();
        out.println("Medians, msgs/s:");
        out.printf(Locale.ROOT, "%-20s", "provider");
        WORKLOADS.forEach(w -> out.printf(Locale.ROOT, "%10s", w));
        out.println();
        for (String p : rates.keySet()) {
            out.printf(Locale.ROOT, "%-20s", p);
            WORKLOADS.forEach(w -> out.printf(Locale.ROOT, "%10.0f", median(p, w)));
            out.println();
        }
        for (String[] pair : PAIRS) {
            if (!rates.containsKey(pair[1]) || !rates.containsKey(pair[2])) {
                continue;
            }
            out.println();
            out.printf(Locale.ROOT, "%s: %s ÷ %s%n%n", pair[0], pair[1], pair[2]);
            out.printf(Locale.ROOT, "| workload | %s | %s | ratio of medians | median of round ratios |%n",
                    pair[2], pair[1]);
            out.println("|---|---:|---:|---:|---:|");
            for (String w : WORKLOADS) {
                double a = median(pair[2], w);
                double x = median(pair[1], w);
                if (Double.isNaN(a) || Double.isNaN(x)) {
                    continue; // not run (--workloads)
                }
                out.printf(Locale.ROOT, "| %s | %,.0f | %,.0f | %.2f | %.2f |%n", w, a, x, x / a,
                        medianOfRoundRatios(pair[1], pair[2], w));
            }
        }
    }
}
