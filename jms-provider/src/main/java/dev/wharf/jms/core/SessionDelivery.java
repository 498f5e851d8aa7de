package dev.wharf.jms.core;

import dev.wharf.jms.engine.Leased;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The one thread that delivers a session's messages to its message listeners, one at a time (Jakarta Messaging
 * 3.1, 6.2.4: a session serializes its listeners). It takes the consumers with a listener and a buffered message
 * in turn, while the connection is started; {@link #awaitIdle()} lets {@code Connection.stop()} and close wait
 * for the listener running now. Started with the first listener, ended when the session closes.
 */
final class SessionDelivery implements Runnable {

    private static final Logger LOG = LoggerFactory.getLogger(SessionDelivery.class);

    private final WharfSession session;
    private final String name;
    private Thread thread;
    /** The consumer whose listener runs now, or null; guarded by the session's lock. */
    private WharfMessageConsumer running;
    private int next;

    SessionDelivery(WharfSession session, String name) {
        this.session = session;
        this.name = name;
    }

    /** Starts the thread if it does not run yet. Caller holds the session's lock. */
    void ensureStarted() {
        if (thread == null) {
            thread = new Thread(this, name);
            thread.setDaemon(true);
            thread.start();
        }
    }

    boolean isDeliveryThread() {
        return Thread.currentThread() == thread;
    }

    /** Whether the listener of {@code consumer} (any consumer, for null) runs now. Caller holds the lock. */
    boolean isRunning(WharfMessageConsumer consumer) {
        return running != null && (consumer == null || running == consumer);
    }

    /**
     * Waits until no listener (of {@code consumer}, or of any consumer for null) runs; returns at once on the
     * delivery thread itself, whose listener is the caller.
     */
    void awaitIdle(WharfMessageConsumer consumer) {
        if (isDeliveryThread()) {
            return;
        }
        session.lock.lock();
        try {
            while (isRunning(consumer)) {
                session.changed.awaitUninterruptibly();
            }
        } finally {
            session.lock.unlock();
        }
    }

    /** Waits for the thread to end after the session closed (not from the thread itself). */
    void join() {
        Thread t;
        session.lock.lock();
        try {
            t = thread;
        } finally {
            session.lock.unlock();
        }
        if (t != null && t != Thread.currentThread()) {
            try {
                t.join(10_000);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }

    @Override
    public void run() {
        while (true) {
            WharfMessageConsumer consumer;
            Leased message;
            session.lock.lock();
            try {
                consumer = null;
                while (!session.isClosed() && (consumer = nextReady()) == null) {
                    session.changed.awaitUninterruptibly();
                }
                if (session.isClosed()) {
                    return;
                }
                message = consumer.pollBuffered();
                running = consumer;
            } finally {
                session.lock.unlock();
            }
            try {
                session.deliveries().deliverToListener(consumer, message);
            } catch (RuntimeException | Error e) {
                LOG.error("Delivering a message of {} failed: {}", consumer, e.toString(), e);
            } finally {
                session.lock.lock();
                try {
                    running = null;
                    session.changed.signalAll();
                    consumer.refill();
                } finally {
                    session.lock.unlock();
                }
            }
        }
    }

    /** The next consumer, in turn, with a listener and a buffered message, if delivery is allowed. */
    private WharfMessageConsumer nextReady() {
        if (!session.deliveryAllowed()) {
            return null;
        }
        List<WharfMessageConsumer> consumers = session.consumers();
        int n = consumers.size();
        for (int i = 0; i < n; i++) {
            WharfMessageConsumer c = consumers.get((next + i) % n);
            if (c.listener() != null && !c.isClosed() && c.hasBuffered()) {
                next = (next + i + 1) % n;
                return c;
            }
        }
        return null;
    }
}
