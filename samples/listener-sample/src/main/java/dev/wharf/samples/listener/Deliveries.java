package dev.wharf.samples.listener;

import jakarta.jms.JMSException;
import jakarta.jms.Message;
import jakarta.jms.TextMessage;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Predicate;
import org.springframework.stereotype.Component;

/**
 * What the listeners received in this run. Messages are tagged with the run's id when sent; one from an earlier
 * run (left in a queue or durable subscription when that run stopped) is counted apart and otherwise ignored.
 * Thread-safe.
 */
@Component
public class Deliveries {

    /** Message property holding the id of the run that sent the message. */
    static final String RUN_PROPERTY = "sampleRun";

    /** One delivery to one listener. */
    public record Delivery(String listener, String body, int deliveryCount, String thread) {
    }

    private final String runId = UUID.randomUUID().toString().substring(0, 8);
    private final ReentrantLock lock = new ReentrantLock();
    private final Condition changed = lock.newCondition();
    private final List<Delivery> deliveries = new ArrayList<>();
    private int fromEarlierRuns;

    /** The id this run tags its messages with. */
    String runId() {
        return runId;
    }

    void record(String listener, Message message) throws JMSException {
        boolean ours = runId.equals(message.getStringProperty(RUN_PROPERTY));
        Delivery d = new Delivery(listener, ((TextMessage) message).getText(),
                message.getIntProperty("JMSXDeliveryCount"), Thread.currentThread().getName());
        lock.lock();
        try {
            if (ours) {
                deliveries.add(d);
            } else {
                fromEarlierRuns++;
            }
            changed.signalAll();
        } finally {
            lock.unlock();
        }
    }

    /** This run's deliveries to a listener, in the order they happened. */
    List<Delivery> to(String listener) {
        lock.lock();
        try {
            return deliveries.stream().filter(d -> d.listener().equals(listener)).toList();
        } finally {
            lock.unlock();
        }
    }

    int fromEarlierRuns() {
        lock.lock();
        try {
            return fromEarlierRuns;
        } finally {
            lock.unlock();
        }
    }

    /** Waits until {@code done} holds (checked after each delivery) or the time is up; returns whether it holds. */
    boolean await(Predicate<Deliveries> done, long timeoutMillis) throws InterruptedException {
        long remaining = TimeUnit.MILLISECONDS.toNanos(timeoutMillis);
        lock.lock();
        try {
            while (!done.test(this)) {
                if (remaining <= 0) {
                    return false;
                }
                remaining = changed.awaitNanos(remaining);
            }
            return true;
        } finally {
            lock.unlock();
        }
    }
}
