package dev.wharf.chaos.check;

import java.util.List;

/**
 * Summary figures of a list of durations in milliseconds.
 *
 * @param count how many
 * @param p50   the median (nearest rank); 0 when empty
 * @param max   the largest; 0 when empty
 */
public record Durations(int count, long p50, long max) {

    static Durations of(List<Long> values) {
        if (values.isEmpty()) {
            return new Durations(0, 0, 0);
        }
        long[] sorted = values.stream().mapToLong(Long::longValue).sorted().toArray();
        int rank = (int) Math.ceil(0.5 * sorted.length) - 1;
        return new Durations(sorted.length, sorted[Math.max(0, rank)], sorted[sorted.length - 1]);
    }
}
