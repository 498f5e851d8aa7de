package dev.wharf.benchmarks.load;

import dev.wharf.client.ClientConfig;
import dev.wharf.client.ClientException;
import dev.wharf.client.producer.Producer;
import dev.wharf.common.message.Message;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.atomic.LongAdder;

/**
 * Producer threads sending messages of one size as fast as synchronous sends return, each thread recording the
 * latency of its sends (microseconds) while the {@link Window} is open. One producer shared by the threads, as
 * applications share one.
 */
final class ProducerLoad {

    private final Producer producer;
    private final String topic;
    private final byte[] body;
    private final Window window;
    private final List<Thread> threads = new ArrayList<>();
    private final List<LatencyHistogram> histograms = new ArrayList<>();
    /** Sends that returned, whole run (progress lines). */
    final LongAdder sent = new LongAdder();
    /** Sends that returned while the window was open. */
    final LongAdder sentInWindow = new LongAdder();
    final LongAdder errors = new LongAdder();
    final AtomicReference<String> firstError = new AtomicReference<>();
    private volatile boolean stopping;

    ProducerLoad(ClientConfig config, String topic, int threadCount, int size, Window window) {
        this.producer = new Producer("wharf-load-producer", config);
        this.topic = topic;
        this.window = window;
        this.body = new byte[size];
        new SplittableRandom(size).nextBytes(body);
        for (int i = 0; i < threadCount; i++) {
            LatencyHistogram histogram = new LatencyHistogram();
            histograms.add(histogram);
            Thread t = new Thread(() -> sendLoop(histogram), "wharf-load-producer-" + i);
            t.setDaemon(true);
            threads.add(t);
        }
    }

    void start() throws ClientException {
        producer.start();
        threads.forEach(Thread::start);
    }

    private void sendLoop(LatencyHistogram histogram) {
        while (!stopping) {
            Message msg = new Message(topic, body);
            long begin = System.nanoTime();
            try {
                producer.send(msg);
            } catch (ClientException | RuntimeException e) {
                errors.increment();
                firstError.compareAndSet(null, e.getMessage());
                continue;
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
            long micros = (System.nanoTime() - begin) / 1_000;
            sent.increment();
            if (window.isOpen()) {
                histogram.record(micros);
                sentInWindow.increment();
            }
        }
    }

    /** Stops the threads (each finishes its send in flight) and the producer. */
    void stop() throws InterruptedException {
        if (stopping) {
            return;
        }
        stopping = true;
        for (Thread t : threads) {
            t.join(10_000);
        }
        producer.shutdown();
    }

    /** The latencies of all threads; call after {@link #stop()}. */
    LatencyHistogram latencies() {
        LatencyHistogram all = new LatencyHistogram();
        histograms.forEach(all::add);
        return all;
    }
}
