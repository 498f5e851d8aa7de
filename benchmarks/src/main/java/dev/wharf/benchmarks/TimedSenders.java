package dev.wharf.benchmarks;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Threads that send in a loop, first for a warm-up that is not counted (the JIT compiles the path, connections
 * open), then for the measured window. Only sends that returned within the window count; failures are counted
 * apart so a broken set-up shows instead of passing as a slow one.
 */
public final class TimedSenders {

    /** One send (or one batch); returns how many messages it stored. */
    @FunctionalInterface
    public interface Sender {
        int sendOnce(byte[] body) throws Exception;
    }

    /** Messages stored per second in the window, their count, failed sends, and process CPU per message. */
    public record Result(double perSecond, long messages, long failures, double cpuMicrosPerMessage) {
    }

    private TimedSenders() {
    }

    /** Runs {@code threads} senders of {@code bodySize}-byte bodies: warm-up, then the measured window. */
    public static Result run(String name, int threads, int bodySize, long warmUpMillis, long windowMillis,
            Sender sender) throws InterruptedException {
        byte[] body = new byte[bodySize];
        AtomicBoolean counting = new AtomicBoolean();
        AtomicBoolean stop = new AtomicBoolean();
        AtomicLong messages = new AtomicLong();
        AtomicLong failures = new AtomicLong();
        List<Thread> workers = new ArrayList<>();
        for (int t = 0; t < threads; t++) {
            Thread worker = new Thread(() -> {
                while (!stop.get()) {
                    try {
                        int stored = sender.sendOnce(body);
                        if (counting.get()) {
                            messages.addAndGet(stored);
                        }
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                        return;
                    } catch (Exception e) {
                        failures.incrementAndGet();
                    }
                }
            }, name + "-" + t);
            worker.start();
            workers.add(worker);
        }
        try {
            Thread.sleep(warmUpMillis); // a fixed time window, not a wait for a condition
            failures.set(0);
            counting.set(true);
            long start = System.nanoTime();
            long cpuStart = Bench.processCpuNanos();
            Thread.sleep(windowMillis);
            counting.set(false);
            long sent = messages.get();
            double seconds = (System.nanoTime() - start) / 1e9;
            double cpuMicros = sent == 0 ? 0 : (Bench.processCpuNanos() - cpuStart) / 1e3 / sent;
            return new Result(sent / seconds, sent, failures.get(), cpuMicros);
        } finally {
            stop.set(true);
            for (Thread w : workers) {
                w.join(10_000);
            }
        }
    }
}
