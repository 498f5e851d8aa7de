package dev.wharf.benchmarks;

import dev.wharf.jms.WharfConnectionFactory;
import dev.wharf.jms.vm.VmBrokerRegistry;
import jakarta.jms.Connection;
import jakarta.jms.DeliveryMode;
import jakarta.jms.JMSException;
import jakarta.jms.MessageConsumer;
import jakarta.jms.MessageProducer;
import jakarta.jms.Queue;
import jakarta.jms.Session;
import jakarta.jms.TextMessage;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;

/**
 * The load of the JMS API on Wharf: 1 KiB persistent TextMessages through {@code MessageProducer.send} with 1 and
 * 4 producers (one session and thread each), an AUTO_ACKNOWLEDGE listener draining what one producer sent, the
 * end-to-end latency (send to onMessage) at a steady 1,000 messages per second, and transacted sessions
 * committing batches of 100. Reports messages per second and latency percentiles (send call, end to end, commit).
 *
 * <p>Run: {@code mvn -q -pl benchmarks -am test-compile exec:java -Dbenchmark.main=dev.wharf.benchmarks.JmsLoad
 * -Dexec.args="--messages 20000"}; {@code --url wharf://host:9876} measures a standalone server instead of the
 * default in-JVM broker ({@code vm://jmsload}, store in a temporary folder), {@code --size} sets the body size.
 */
public final class JmsLoad {

    private String url = "vm://jmsload";
    private int messages = 20_000;
    private int size = 1024;
    private final String run = Long.toString(System.currentTimeMillis(), 36);

    public static void main(String[] args) throws Exception {
        // without a logback configuration everything is logged at DEBUG, which would be measured too
        ((ch.qos.logback.classic.Logger) org.slf4j.LoggerFactory.getLogger(org.slf4j.Logger.ROOT_LOGGER_NAME))
                .setLevel(ch.qos.logback.classic.Level.WARN);
        JmsLoad load = new JmsLoad();
        load.parse(args);
        try {
            load.run();
        } finally {
            VmBrokerRegistry.shared().stopAll();
        }
        System.exit(0);
    }

    private void parse(String[] args) {
        for (int i = 0; i < args.length; i++) {
            String value = i + 1 < args.length ? args[i + 1] : null;
            switch (args[i]) {
                case "--url" -> url = require(args[i], value);
                case "--messages" -> messages = Integer.parseInt(require(args[i], value));
                case "--size" -> size = Integer.parseInt(require(args[i], value));
                default -> throw new IllegalArgumentException("Unknown option " + args[i]
                        + "; use --url URL, --messages N, --size BYTES.");
            }
            i++;
        }
    }

    private static String require(String option, String value) {
        if (value == null) {
            throw new IllegalArgumentException(option + " needs a value.");
        }
        return value;
    }

    private void run() throws Exception {
        WharfConnectionFactory factory = new WharfConnectionFactory(url);
        String body = "x".repeat(size);
        System.out.printf(Locale.ROOT, "JMS load on %s: %d messages of %d bytes, persistent%n", url, messages, size);
        warmUp(factory, body);
        send(factory, body, 1);
        consume(factory);
        send(factory, body, 4);
        endToEnd(factory, body, 1_000);
        transacted(factory, body, 100);
    }

    private void warmUp(WharfConnectionFactory factory, String body) throws Exception {
        try (Connection c = factory.createConnection()) {
            c.start();
            Session s = c.createSession();
            Queue q = s.createQueue("jmsload-warmup-" + run);
            MessageProducer p = s.createProducer(q);
            MessageConsumer consumer = s.createConsumer(q);
            for (int i = 0; i < 2_000; i++) {
                p.send(s.createTextMessage(body));
                consumer.receive(5_000);
            }
        }
    }

    /** {@code producers} threads, each with a session of its own, share {@link #messages} sends. */
    private void send(WharfConnectionFactory factory, String body, int producers) throws Exception {
        try (Connection c = factory.createConnection()) {
            String queue = "jmsload-send" + producers + "-" + run;
            long[] latencies = new long[messages];
            AtomicInteger next = new AtomicInteger();
            List<Thread> threads = new ArrayList<>();
            List<Exception> failures = new ArrayList<>();
            long start = System.nanoTime();
            for (int t = 0; t < producers; t++) {
                Session s = c.createSession();
                MessageProducer p = s.createProducer(s.createQueue(queue));
                p.setDeliveryMode(DeliveryMode.PERSISTENT);
                Thread thread = new Thread(() -> {
                    try {
                        for (int i = next.getAndIncrement(); i < messages; i = next.getAndIncrement()) {
                            TextMessage m = s.createTextMessage(body);
                            long before = System.nanoTime();
                            p.send(m);
                            latencies[i] = System.nanoTime() - before;
                        }
                    } catch (JMSException e) {
                        synchronized (failures) {
                            failures.add(e);
                        }
                    }
                }, "jmsload-producer-" + t);
                threads.add(thread);
                thread.start();
            }
            for (Thread thread : threads) {
                thread.join();
            }
            long elapsed = System.nanoTime() - start;
            if (!failures.isEmpty()) {
                throw failures.get(0);
            }
            report("send, " + producers + " producer" + (producers > 1 ? "s" : ""), messages, elapsed,
                    "send", latencies);
        }
    }

    /** An AUTO_ACKNOWLEDGE listener drains a queue that {@link #send} filled with one producer. */
    private void consume(WharfConnectionFactory factory) throws Exception {
        try (Connection c = factory.createConnection()) {
            AtomicInteger received = new AtomicInteger();
            CountDownLatch done = new CountDownLatch(1);
            Session s = c.createSession(Session.AUTO_ACKNOWLEDGE);
            s.createConsumer(s.createQueue("jmsload-send1-" + run)).setMessageListener(m -> {
                if (received.incrementAndGet() == messages) {
                    done.countDown();
                }
            });
            long start = System.nanoTime();
            c.start();
            if (!done.await(5, TimeUnit.MINUTES)) {
                throw new IllegalStateException("only " + received.get() + " of " + messages + " messages arrived");
            }
            long elapsed = System.nanoTime() - start;
            System.out.printf(Locale.ROOT, "%-36s %9.0f msgs/s%n", "receive, AUTO_ACKNOWLEDGE listener",
                    messages / (elapsed / 1e9));
        }
    }

    /**
     * One producer sends at {@code rate} messages per second (below what the consumer can take, so the latency
     * is the path's, not a backlog's) while an AUTO_ACKNOWLEDGE listener receives; latency from send to onMessage.
     */
    private void endToEnd(WharfConnectionFactory factory, String body, int rate) throws Exception {
        int count = Math.min(messages, rate * 10);
        try (Connection c = factory.createConnection()) {
            String queue = "jmsload-e2e-" + run;
            Session sending = c.createSession();
            MessageProducer p = sending.createProducer(sending.createQueue(queue));
            p.send(sending.createTextMessage("creates the queue"));
            long[] latencies = new long[count];
            AtomicInteger received = new AtomicInteger();
            CountDownLatch done = new CountDownLatch(1);
            Session consuming = c.createSession(Session.AUTO_ACKNOWLEDGE);
            consuming.createConsumer(consuming.createQueue(queue)).setMessageListener(m -> {
                try {
                    if (!m.propertyExists("sentNanos")) {
                        return;
                    }
                    int i = received.getAndIncrement();
                    if (i < count) {
                        latencies[i] = System.nanoTime() - m.getLongProperty("sentNanos");
                    }
                    if (i + 1 == count) {
                        done.countDown();
                    }
                } catch (JMSException e) {
                    throw new IllegalStateException(e);
                }
            });
            c.start();
            long interval = TimeUnit.SECONDS.toNanos(1) / rate;
            long start = System.nanoTime();
            for (int i = 0; i < count; i++) {
                long due = start + i * interval;
                while (System.nanoTime() < due) {
                    LockSupport.parkNanos(due - System.nanoTime());
                }
                TextMessage m = sending.createTextMessage(body);
                m.setLongProperty("sentNanos", System.nanoTime());
                p.send(m);
            }
            if (!done.await(5, TimeUnit.MINUTES)) {
                throw new IllegalStateException("only " + received.get() + " of " + count + " messages arrived");
            }
            report("send + listener at " + rate + " msgs/s", count, System.nanoTime() - start, "end to end",
                    latencies);
        }
    }

    /** One transacted session sends batches and commits each; latency of the commit call. */
    private void transacted(WharfConnectionFactory factory, String body, int batch) throws Exception {
        try (Connection c = factory.createConnection()) {
            Session s = c.createSession(Session.SESSION_TRANSACTED);
            MessageProducer p = s.createProducer(s.createQueue("jmsload-tx-" + run));
            int batches = Math.max(1, messages / batch);
            long[] commits = new long[batches];
            long start = System.nanoTime();
            for (int b = 0; b < batches; b++) {
                for (int i = 0; i < batch; i++) {
                    p.send(s.createTextMessage(body));
                }
                long before = System.nanoTime();
                s.commit();
                commits[b] = System.nanoTime() - before;
            }
            report("transacted, batches of " + batch, batches * batch, System.nanoTime() - start, "commit", commits);
        }
    }

    private static void report(String scenario, int count, long elapsedNanos, String latencyName, long[] latencies) {
        long[] sorted = latencies.clone();
        Arrays.sort(sorted);
        double seconds = elapsedNanos / 1e9;
        System.out.printf(Locale.ROOT, "%-36s %9.0f msgs/s   %s latency ms: p50 %.2f  p99 %.2f  p99.9 %.2f  max %.2f%n",
                scenario, count / seconds, latencyName, ms(sorted, 0.50), ms(sorted, 0.99), ms(sorted, 0.999),
                sorted[sorted.length - 1] / 1e6);
    }

    private static double ms(long[] sorted, double quantile) {
        int index = Math.min(sorted.length - 1, (int) Math.ceil(quantile * sorted.length) - 1);
        return sorted[Math.max(0, index)] / 1e6;
    }
}
