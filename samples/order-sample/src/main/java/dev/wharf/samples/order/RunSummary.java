package dev.wharf.samples.order;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * What one run did, over the orders it placed and the ones earlier runs had left open.
 *
 * @param run           the run's number
 * @param broker        where the broker was, in words
 * @param placed        orders placed by this run
 * @param carriedOver   orders earlier runs had left open when this run started
 * @param byStatus      those orders (placed and carried over) by their status at the end
 * @param recovered     orders whose OrderCreated message this run received although their JVM had been killed
 *                      right after their database commit: the broker's check-back delivered it
 * @param checkBacks    the check-backs this application answered, by outcome (in words), or null without them
 * @param paymentWindow how long customers had to pay
 * @param placing       from the first order placed to the last (each placed in a transaction of its own, one after
 *                      the other)
 * @param elapsed       from the first order placed to the last settled (or to the deadline)
 */
public record RunSummary(int run, String broker, List<Long> placed, List<Long> carriedOver,
                         Map<OrderStatus, List<Long>> byStatus, List<Long> recovered, String checkBacks,
                         Duration paymentWindow, Duration placing, Duration elapsed) {

    private static final int IDS_SHOWN = 8;

    public List<Long> ids(OrderStatus status) {
        return byStatus.getOrDefault(status, List.of());
    }

    public int count(OrderStatus status) {
        return ids(status).size();
    }

    /** Orders still PLACED or RESERVED. */
    public List<Long> open() {
        List<Long> open = new ArrayList<>(ids(OrderStatus.PLACED));
        open.addAll(ids(OrderStatus.RESERVED));
        open.sort(null);
        return open;
    }

    /** Orders placed per second, from the first order placed to the last. */
    public double ordersPerSecond() {
        long nanos = Math.max(1, placing.toNanos());
        return placed.size() * 1e9 / nanos;
    }

    /** The summary as printed, several lines. */
    public String format() {
        int total = placed.size() + carriedOver.size();
        StringBuilder sb = new StringBuilder();
        sb.append(String.format(Locale.ROOT, "%nOrder sample, run %d, on %s%n", run, broker));
        line(sb, "orders placed", placed.size(), List.of());
        line(sb, "open from earlier runs", carriedOver.size(), carriedOver);
        line(sb, "paid", count(OrderStatus.PAID), List.of());
        line(sb, "cancelled (unpaid after " + seconds(paymentWindow) + ")", count(OrderStatus.CANCELLED),
                ids(OrderStatus.CANCELLED));
        line(sb, "dead-lettered (payment failed)", count(OrderStatus.PAYMENT_FAILED),
                ids(OrderStatus.PAYMENT_FAILED));
        if (count(OrderStatus.REJECTED) > 0) {
            line(sb, "rejected (out of stock)", count(OrderStatus.REJECTED), ids(OrderStatus.REJECTED));
        }
        line(sb, "still open", open().size(), open());
        line(sb, "recovered by check-back", recovered.size(), recovered);
        if (checkBacks != null) {
            sb.append(String.format(Locale.ROOT, "  %-32s %4s   %s%n", "check-backs answered", "", checkBacks));
        }
        sb.append(String.format(Locale.ROOT, "Placed %d orders in %.2f s: %.0f orders/s.%n", placed.size(),
                placing.toNanos() / 1e9, ordersPerSecond()));
        if (open().isEmpty()) {
            sb.append(String.format(Locale.ROOT, "All %d orders settled in %s.%n", total, seconds(elapsed)));
        } else {
            sb.append(String.format(Locale.ROOT, "%d of %d orders still open after %s. An order stays open when"
                    + " its messages are gone (e.g. the broker's store was deleted but not the database): delete the"
                    + " sample's folder (~/.wharf/order-sample) to start afresh.%n", open().size(), total,
                    seconds(elapsed)));
        }
        return sb.toString();
    }

    private static void line(StringBuilder sb, String label, int count, List<Long> ids) {
        String shown = ids.stream().limit(IDS_SHOWN).map(id -> "#" + id).collect(Collectors.joining(" "));
        if (ids.size() > IDS_SHOWN) {
            shown += " ...";
        }
        sb.append(String.format(Locale.ROOT, "  %-32s %4d   %s", label, count, shown).stripTrailing())
                .append(System.lineSeparator());
    }

    private static String seconds(Duration d) {
        long ms = d.toMillis();
        return ms % 1000 == 0 ? ms / 1000 + " s" : String.format(Locale.ROOT, "%.1f s", ms / 1000.0);
    }
}
