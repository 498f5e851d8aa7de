package dev.wharf.benchmarks.sbs;

import jakarta.jms.Connection;
import jakarta.jms.ConnectionFactory;
import jakarta.jms.DeliveryMode;
import jakarta.jms.JMSException;
import jakarta.jms.MessageConsumer;
import jakarta.jms.MessageProducer;
import jakarta.jms.Session;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicReference;

/**
 * The four workloads, written against the Jakarta Messaging API only, so that every provider runs the same code:
 * persistent TextMessages of one body, sent by 1 or 4 producers (a connection, session and thread each), by one
 * transacted session committing every {@code batch}, and drained by one AUTO_ACKNOWLEDGE consumer.
 */
final class Workloads {

    /** Messages sent and the seconds they took. */
    record Count(long messages, double seconds) {
        double perSecond() {
            return seconds <= 0 ? 0 : messages / seconds;
        }
    }

    private final String body;
    private final int batch;

    Workloads(String body, int batch) {
        this.body = body;
        this.batch = batch;
    }

    /**
     * Sends until {@code seconds} have passed; a transacted producer stops at a commit, so every counted message is
     * committed. The clock starts once every producer has its connection, session and producer.
     */
    Count send(ConnectionFactory cf, String queue, double seconds, int producers, boolean transacted)
            throws Exception {
        long[] counts = new long[producers];
        AtomicReference<Exception> failure = new AtomicReference<>();
        CountDownLatch ready = new CountDownLatch(producers);
        CountDownLatch go = new CountDownLatch(1);
        long[] deadline = new long[1];
        Thread[] threads = new Thread[producers];
        for (int t = 0; t < producers; t++) {
            int id = t;
            threads[t] = new Thread(() -> {
                try (Connection c = cf.createConnection()) {
                    Session s = transacted ? c.createSession(true, Session.SESSION_TRANSACTED)
                            : c.createSession(false, Session.AUTO_ACKNOWLEDGE);
                    MessageProducer p = s.createProducer(s.createQueue(queue));
                    p.setDeliveryMode(DeliveryMode.PERSISTENT);
                    ready.countDown();
                    go.await();
                    counts[id] = sendUntil(s, p, deadline[0], transacted);
                } catch (Exception e) {
                    failure.compareAndSet(null, e);
                    ready.countDown();
                }
            }, "sbs-producer-" + t);
            threads[t].start();
        }
        ready.await();
        long start = System.nanoTime();
        deadline[0] = start + (long) (seconds * 1e9);
        go.countDown(); // publishes deadline[0] to the producers
        for (Thread t : threads) {
            t.join();
        }
        long end = System.nanoTime();
        if (failure.get() != null) {
            throw failure.get();
        }
        long total = 0;
        for (long c : counts) {
            total += c;
        }
        return new Count(total, (end - start) / 1e9);
    }

    private long sendUntil(Session s, MessageProducer p, long deadline, boolean transacted) throws JMSException {
        long n = 0;
        while (true) {
            p.send(s.createTextMessage(body));
            n++;
            if (transacted) {
                if (n % batch == 0) {
                    s.commit();
                    if (System.nanoTime() - deadline >= 0) {
                        return n;
                    }
                }
            } else if ((n & 15) == 0 && System.nanoTime() - deadline >= 0) {
                return n;
            }
        }
    }

    /**
     * Receives exactly {@code expected} messages, timed from the first to the last.
     *
     * @throws IllegalStateException when a message does not come within {@code patienceMillis}
     */
    Count drain(ConnectionFactory cf, String queue, long expected, long patienceMillis) throws JMSException {
        try (Connection c = cf.createConnection()) {
            Session s = c.createSession(false, Session.AUTO_ACKNOWLEDGE);
            MessageConsumer consumer = s.createConsumer(s.createQueue(queue));
            c.start();
            if (expected == 0) {
                return new Count(0, 0);
            }
            long start = 0;
            for (long n = 0; n < expected; n++) {
                if (consumer.receive(patienceMillis) == null) {
                    throw new IllegalStateException("The drain of " + queue + " received " + n + " of the "
                            + expected + " messages sent, then nothing for " + patienceMillis + " ms.");
                }
                if (n == 0) {
                    start = System.nanoTime();
                }
            }
            return new Count(expected - 1, (System.nanoTime() - start) / 1e9);
        }
    }
}
