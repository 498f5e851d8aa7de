package dev.wharf.jms.core;

import dev.wharf.client.ClientException;
import dev.wharf.client.ack.AckConsumer;
import dev.wharf.client.ack.PopResult;
import dev.wharf.client.ack.PopStatus;
import dev.wharf.client.ack.PoppedMessage;
import dev.wharf.jms.engine.LeaseKeeper;
import dev.wharf.jms.engine.Leased;
import dev.wharf.jms.error.JmsErrors;
import dev.wharf.protocol.ResponseCode;
import jakarta.jms.IllegalStateException;
import jakarta.jms.JMSException;
import jakarta.jms.Message;
import jakarta.jms.MessageConsumer;
import jakarta.jms.MessageListener;
import jakarta.jms.Queue;
import jakarta.jms.QueueReceiver;
import jakarta.jms.Topic;
import jakarta.jms.TopicSubscriber;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A consumer: pops messages of its group from the broker into a small buffer and hands them out through
 * {@code receive} or, on the session's delivery thread, to its message listener (Jakarta Messaging 3.1, 8).
 *
 * <p><b>Fetching.</b> A synchronous consumer pops while a {@code receive} waits (up to its prefetch window of
 * messages, long-polling at the broker until shortly before the receive's timeout ends, so that an idle consumer
 * holds no messages other consumers could have), and tops its buffer up once half of it is taken. A pop that
 * answers after its receive gave up still fills the buffer: giving its messages back could let a later pop overtake
 * them. A consumer with a listener keeps
 * one long-polling pop running while the connection is started and its buffer is at most half full. Popped
 * messages are leased; the lease is renewed while they are held, and messages still buffered when the consumer
 * closes (or the session recovers) are given back without counting a delivery.
 *
 * <p><b>Order.</b> Within one broker queue messages come in queue order, redeliveries first; a session's messages
 * to one destination are on one queue (see {@code SessionQueues}), so they are received in the order sent.
 *
 * <p>Every method but {@link #close()} checks that the consumer is open. Thread-safety: the buffer is guarded by
 * the session's lock; receive and listener calls follow the session's threading rules.
 */
public class WharfMessageConsumer implements MessageConsumer, QueueReceiver, TopicSubscriber {

    private static final Logger LOG = LoggerFactory.getLogger(WharfMessageConsumer.class);
    /** How long a listener consumer's pop waits at the broker for messages. */
    static final long LISTENER_POLL_MILLIS = 15_000;
    /** Longest single pop of a waiting receive; the receive pops again if it waits longer. */
    private static final long RECEIVE_POLL_MILLIS = 15_000;
    /**
     * How much sooner than a timed receive's end its pop stops waiting at the broker, so that the answer is in before
     * the receive gives up (an answer that comes later is kept, see {@link #take}).
     */
    private static final long RECEIVE_POLL_MARGIN_MILLIS = 20;
    /** How long a consumer waits before it pops again after a failed pop. */
    private static final long RETRY_MILLIS = 1_000;
    /** How long a consumer of a destination that does not exist yet waits before it looks again. */
    private static final long NO_ROUTE_RETRY_MILLIS = 200;
    private static final PopResult NOTHING = new PopResult(PopStatus.NO_MESSAGE, List.of());

    private final WharfSession session;
    private final ConsumerSpec spec;
    private final AckConsumer group;
    private final PrefetchWindow window;
    /** Popped messages not yet handed out; guarded by the session's lock. */
    private final ArrayDeque<Leased> buffer = new ArrayDeque<>();
    /** The pop in flight, if any; guarded by the session's lock. */
    private CompletableFuture<PopResult> pop;
    private long retryAfterNanos;
    private boolean failureLogged;
    private volatile MessageListener listener;
    private volatile boolean closed;

    WharfMessageConsumer(WharfSession session, ConsumerSpec spec, AckConsumer group, int prefetch) {
        this.session = session;
        this.spec = spec;
        this.group = group;
        this.window = new PrefetchWindow(prefetch);
    }

    ConsumerSpec spec() {
        return spec;
    }

    AckConsumer group() {
        return group;
    }

    boolean isClosed() {
        return closed;
    }

    // ---------------------------------------------------------------- JMS API

    @Override
    public String getMessageSelector() throws JMSException {
        checkOpen();
        return spec.selectorText();
    }

    @Override
    public MessageListener getMessageListener() throws JMSException {
        checkOpen();
        return listener;
    }

    /**
     * Sets (or, with null, removes) the listener; from then on the session's delivery thread hands this
     * consumer's messages to it while the connection is started.
     */
    @Override
    public void setMessageListener(MessageListener messageListener) throws JMSException {
        checkOpen();
        session.lock.lock();
        try {
            this.listener = messageListener;
            if (messageListener != null) {
                session.listenerSet();
                refill();
            }
            session.changed.signalAll();
        } finally {
            session.lock.unlock();
        }
    }

    MessageListener listener() {
        return listener;
    }

    @Override
    public Queue getQueue() throws JMSException {
        checkOpen();
        return spec.destination() instanceof Queue q ? q : null;
    }

    @Override
    public Topic getTopic() throws JMSException {
        checkOpen();
        return spec.destination() instanceof Topic t ? t : null;
    }

    @Override
    public boolean getNoLocal() throws JMSException {
        checkOpen();
        return spec.noLocal();
    }

    @Override
    public Message receive() throws JMSException {
        return receive(0, false);
    }

    @Override
    public Message receive(long timeout) throws JMSException {
        return receive(Math.max(0, timeout), false);
    }

    @Override
    public Message receiveNoWait() throws JMSException {
        return receive(0, true);
    }

    /**
     * Receives the next message whose body can be assigned to {@code c} (the simplified API's receiveBody):
     * a message whose body cannot is kept at the head of the buffer and the failure thrown, as if the call had
     * not happened, in AUTO_ACKNOWLEDGE and DUPS_OK_ACKNOWLEDGE sessions; in the other modes it counts as received.
     *
     * @param timeout 0 waits for ever, -1 does not wait
     */
    public <T> T receiveBody(Class<T> c, long timeout) throws JMSException {
        session.deliveries().checkReceiveAllowed(this);
        Leased next = take(timeout <= 0 ? 0 : timeout, timeout < 0);
        while (next != null) {
            SessionDeliveries.Body<T> body = session.deliveries().deliverBody(this, next, c);
            if (!body.dropped()) {
                return body.value();
            }
            next = take(timeout <= 0 ? 0 : timeout, timeout < 0);
        }
        return null;
    }

    private Message receive(long timeout, boolean noWait) throws JMSException {
        session.deliveries().checkReceiveAllowed(this);
        while (true) {
            Leased next = take(timeout, noWait);
            if (next == null) {
                return null;
            }
            Message m = session.deliveries().deliverToReceiver(this, next);
            if (m != null) {
                return m;
            }
        }
    }

    /**
     * Takes the next buffered message, popping while it waits; null when the timeout ends, when nothing is
     * available at once ({@code noWait}), or when the consumer or session closes.
     */
    private Leased take(long timeout, boolean noWait) throws JMSException {
        long deadline = timeout > 0 ? System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(timeout) : 0;
        boolean popped = false;
        session.lock.lock();
        try {
            while (true) {
                if (closed || session.isClosed()) {
                    return null;
                }
                boolean started = session.deliveryAllowed();
                if (started) {
                    Leased l = buffer.pollFirst();
                    if (l != null) {
                        session.deliveries().receiving(this);
                        if (pop == null && buffer.size() <= window.size() / 2) {
                            // take what is there now, while the application works through the rest: the next
                            // receive does not wait for a round trip (never held open, so it leases no later message)
                            fetch(0);
                        }
                        return l;
                    }
                }
                long left = timeout > 0 ? deadline - System.nanoTime() : Long.MAX_VALUE;
                if (left <= 0) {
                    // A pop still out is left to answer into the buffer, where the next receive finds its messages
                    // first. Cancelled, it would give them back, and a later pop could overtake them: out of order.
                    return null;
                }
                if (noWait) {
                    if (!started || popped && pop == null) {
                        return null;
                    }
                    if (pop == null) {
                        fetch(0);
                        popped = true;
                    }
                } else if (started && pop == null) {
                    long leftMillis = TimeUnit.NANOSECONDS.toMillis(left);
                    if (timeout <= 0) {
                        fetch(RECEIVE_POLL_MILLIS);
                    } else if (leftMillis > RECEIVE_POLL_MARGIN_MILLIS) {
                        fetch(Math.min(leftMillis - RECEIVE_POLL_MARGIN_MILLIS, RECEIVE_POLL_MILLIS));
                    } else if (!popped) {
                        fetch(0); // a short receive looks once without waiting at the broker
                        popped = true;
                    }
                }
                if (started && !buffer.isEmpty()) {
                    // the pop was answered at once, on this thread: its signal came before any wait
                    continue;
                }
                if (started && pop != null) {
                    window.starved();
                }
                session.changed.await(Math.min(left, TimeUnit.MILLISECONDS.toNanos(NO_ROUTE_RETRY_MILLIS)),
                        TimeUnit.NANOSECONDS);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw JmsErrors.translate("receive a message", e);
        } finally {
            session.lock.unlock();
        }
    }

    /** Puts a message back at the head of the buffer (a receiveBody whose type did not fit). */
    void pushBack(Leased l) {
        session.lock.lock();
        try {
            buffer.addFirst(l);
            session.changed.signalAll();
        } finally {
            session.lock.unlock();
        }
    }

    // ---------------------------------------------------------------- fetching (caller holds the session's lock)

    /** Keeps a listener consumer's buffer filled while the connection is started. Caller holds the lock. */
    void refill() {
        if (listener != null && !closed && session.deliveryAllowed() && buffer.size() <= window.size() / 2) {
            if (buffer.isEmpty() && pop != null) {
                window.starved();
            }
            fetch(LISTENER_POLL_MILLIS);
        }
    }

    /** Starts a pop unless one runs or the consumer waits after a failure. Caller holds the lock. */
    private void fetch(long pollMillis) {
        if (pop != null || closed || System.nanoTime() - retryAfterNanos < 0) {
            return;
        }
        int wanted = Math.max(1, window.size() - buffer.size());
        CompletableFuture<PopResult> f;
        try {
            f = group.popAsync(spec.topic(), -1, wanted, session.leaseMillis(), pollMillis, spec.selector(),
                    spec.initMode(), spec.skipUnmatched());
        } catch (RuntimeException e) {
            failed(e);
            return;
        }
        pop = f;
        f.whenComplete((result, error) -> popped(f, wanted, result, error));
    }

    private void popped(CompletableFuture<PopResult> f, int wanted, PopResult result, Throwable error) {
        List<PoppedMessage> late = null;
        session.lock.lock();
        try {
            if (pop == f) {
                pop = null;
            }
            if (error != null) {
                failed(error instanceof CompletionException && error.getCause() != null ? error.getCause() : error);
            } else {
                window.answered(wanted, result.messages().size());
            }
            if (error == null && !result.messages().isEmpty()) {
                failureLogged = false;
                if (closed) {
                    late = result.messages();
                } else {
                    for (PoppedMessage m : result.messages()) {
                        buffer.addLast(new Leased(m, group, session.leaseMillis()));
                    }
                }
            }
            session.changed.signalAll();
            refill();
        } finally {
            session.lock.unlock();
        }
        if (late != null) {
            SessionAcks.release(group, late, 0, false);
        }
    }

    private void failed(Throwable e) {
        boolean noRoute = e instanceof ClientException c && c.responseCode() == ResponseCode.TOPIC_NOT_EXIST;
        long delay = noRoute ? NO_ROUTE_RETRY_MILLIS : RETRY_MILLIS;
        retryAfterNanos = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(delay);
        if (listener != null) {
            LeaseKeeper.later(this::retryLater, delay);
        }
        if (e instanceof ClientException c && c.isNoResponse()) {
            session.connection().suspectBroker();
        }
        if (!failureLogged && !noRoute) {
            failureLogged = true;
            LOG.warn("Consumer of {} (group {}) could not fetch messages: {}; retrying", spec.destination(),
                    spec.group(), e.getMessage());
        }
    }

    /** Cancels the pop in flight; what it brings later is given back uncounted. Caller holds the lock. */
    private void cancelPop() {
        CompletableFuture<PopResult> f = pop;
        if (f != null) {
            pop = null;
            f.complete(NOTHING);
        }
    }

    /** Whether the buffer holds a message (caller holds the lock). */
    boolean hasBuffered() {
        return !buffer.isEmpty();
    }

    /** Takes the next buffered message for the listener (caller holds the lock). */
    Leased pollBuffered() {
        return buffer.pollFirst();
    }

    /** Hands every buffered message to {@code sink} (caller holds the lock). */
    void forEachBuffered(Consumer<Leased> sink) {
        buffer.forEach(sink);
    }

    /** Empties the buffer and cancels the pop in flight; the caller gives the messages back (holds the lock). */
    List<PoppedMessage> drain() {
        cancelPop();
        return takeBuffered();
    }

    /**
     * Empties the buffer, leaving a pop in flight alone (cancelling it would make it give back late messages
     * after a redelivery, out of order); the caller gives the messages back. Caller holds the lock.
     */
    List<PoppedMessage> takeBuffered() {
        List<PoppedMessage> out = new ArrayList<>(buffer.size());
        buffer.forEach(l -> out.add(l.message()));
        buffer.clear();
        return out;
    }

    private void retryLater() {
        session.lock.lock();
        try {
            refill();
        } finally {
            session.lock.unlock();
        }
    }

    /** After a failure: fetch again at once (the broker answers again). Caller holds the lock. */
    void retryNow() {
        retryAfterNanos = System.nanoTime();
        failureLogged = false;
        refill();
    }

    // ---------------------------------------------------------------- close

    /**
     * Closes the consumer: waits for its listener to return (unless the listener itself calls this) and for
     * a receive in progress, gives its buffered messages back, and ends a non-durable subscription. Messages it
     * delivered and that are not acknowledged yet stay with the session (acknowledge, commit or recover them).
     */
    @Override
    public void close() throws JMSException {
        if (closed) {
            return;
        }
        session.subscriptions().closeConsumer(this);
    }

    /** Marks the consumer closed and empties it; the session finishes the rest. Caller holds the lock. */
    List<PoppedMessage> markClosed() {
        closed = true;
        listener = null;
        session.changed.signalAll();
        return drain();
    }

    private void checkOpen() throws IllegalStateException {
        if (closed) {
            throw JmsErrors.closed("message consumer");
        }
        session.checkOpen();
    }

    @Override
    public String toString() {
        return "WharfMessageConsumer{" + spec.destination() + ", group " + spec.group() + (closed ? ", closed" : "")
                + "}";
    }
}
