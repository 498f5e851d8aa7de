package dev.wharf.benchmarks.load;

import java.io.PrintWriter;

/** The per-second progress line: rates since the previous line. Called from one scheduler thread. */
final class Progress {

    private final PrintWriter out;
    private final ProducerLoad producer;
    private final ConsumerLoad consumer;
    private final Window window;
    private int second;
    private long lastSent;
    private long lastConsumed;

    Progress(PrintWriter out, ProducerLoad producer, ConsumerLoad consumer, Window window) {
        this.out = out;
        this.producer = producer;
        this.consumer = consumer;
        this.window = window;
    }

    void print() {
        second++;
        StringBuilder line = new StringBuilder(String.format("%4ds", second));
        if (producer != null) {
            long sent = producer.sent.sum();
            line.append(String.format("  send %,9d msg/s", sent - lastSent));
            lastSent = sent;
            long errors = producer.errors.sum();
            if (errors > 0) {
                line.append(String.format(" (%,d errors)", errors));
            }
        }
        if (consumer != null) {
            long consumed = consumer.consumed.sum();
            line.append(String.format("  consume %,9d msg/s", consumed - lastConsumed));
            lastConsumed = consumed;
        }
        line.append(window.isOpen() ? "" : "  (warm-up)");
        out.println(line);
        out.flush();
    }
}
