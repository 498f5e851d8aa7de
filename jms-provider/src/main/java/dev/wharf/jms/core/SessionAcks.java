package dev.wharf.jms.core;

import dev.wharf.client.ack.AckConsumer;
import dev.wharf.client.ack.PoppedMessage;
import dev.wharf.jms.engine.Leased;
import dev.wharf.jms.error.JmsErrors;
import jakarta.jms.JMSException;
import jakarta.jms.Session;
import java.util.ArrayList;
import java.util.Collection;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What a session owes the broker for the messages it delivered, per acknowledgement mode (Jakarta Messaging 3.1,
 * 6.2.10 "Message acknowledgment" and 6.2.7 "Transactions"):
 * <ul>
 *   <li>AUTO_ACKNOWLEDGE: each message is acknowledged when receive returns it or its listener returns; the
 *       acknowledgement is sent without waiting for the answer ({@link AckPipeline}: one request in flight, those
 *       made meanwhile batched into the next), and the session waits for all of them when it closes. A listener that throws gets its message again at once, with JMSRedelivered set (8.7).</li>
 *   <li>DUPS_OK_ACKNOWLEDGE: like AUTO, but acknowledgements are batched ({@value #DUPS_OK_BATCH} messages, or
 *       every second); after a failure some messages may come again.</li>
 *   <li>CLIENT_ACKNOWLEDGE: delivered messages wait in the session until {@code acknowledge()} acknowledges all of
 *       them, or {@code recover()} gives them back for redelivery.</li>
 *   <li>SESSION_TRANSACTED: delivered messages wait until commit acknowledges them or rollback gives them back.</li>
 * </ul>
 * A message given back for redelivery counts as delivered: its JMSXDeliveryCount goes up and JMSRedelivered is
 * set, and after {@code maxReconsumeTimes} redeliveries the broker moves it to the dead-letter queue. It is given
 * back with the {@code redeliveryDelay}; with 0 the consumers' prefetched messages are given back too (uncounted),
 * so the redelivered messages come before newer ones of their queue.
 *
 * <p>Guarded by the session's lock, except the network calls, which are made without it.
 */
final class SessionAcks {

    private static final Logger LOG = LoggerFactory.getLogger(SessionAcks.class);
    static final int DUPS_OK_BATCH = 32;

    private final WharfSession session;
    private final int mode;
    private final long redeliveryDelay;
    private final long waitMillis;
    /** CLIENT_ACKNOWLEDGE: delivered, not acknowledged; SESSION_TRANSACTED: consumed in the transaction. */
    private final List<Leased> delivered = new ArrayList<>();
    /** DUPS_OK_ACKNOWLEDGE: processed, acknowledgement not sent yet. */
    private final List<Leased> lazy = new ArrayList<>();
    /** AUTO and DUPS_OK: the message a listener is processing. */
    private Leased current;
    private final Set<CompletableFuture<Void>> inFlight = ConcurrentHashMap.newKeySet();
    /** AUTO and DUPS_OK acknowledgements: one request in flight, the rest batched behind it. */
    private final AckPipeline background = new AckPipeline(SessionAcks::ackAll);

    SessionAcks(WharfSession session, int mode, long redeliveryDelay, long waitMillis) {
        this.session = session;
        this.mode = mode;
        this.redeliveryDelay = Math.min(redeliveryDelay, AckConsumer.MAX_INVISIBLE_TIME);
        this.waitMillis = waitMillis;
    }

    // ---------------------------------------------------------------- deliveries

    /** A receive returned the message to the application. */
    void received(Leased l) {
        switch (mode) {
            case Session.AUTO_ACKNOWLEDGE -> ackInBackground(List.of(l));
            case Session.DUPS_OK_ACKNOWLEDGE -> lazily(l);
            default -> hold(l);
        }
    }

    /** A listener is about to get the message. */
    void beforeListener(Leased l) {
        if (mode == Session.AUTO_ACKNOWLEDGE || mode == Session.DUPS_OK_ACKNOWLEDGE) {
            session.lock.lock();
            try {
                current = l;
            } finally {
                session.lock.unlock();
            }
        } else {
            hold(l);
        }
    }

    /**
     * The listener returned ({@code failed}: with a runtime exception). AUTO and DUPS_OK acknowledge the message,
     * or give it back for redelivery when the listener failed; CLIENT and transacted sessions go on with the next
     * message either way (8.7).
     *
     * @return the give-back of a failed message (the caller waits for it before it gives back the consumer's
     *         prefetched messages, so the failed message comes first), or null
     */
    CompletableFuture<Void> afterListener(Leased l, boolean failed) {
        if (mode != Session.AUTO_ACKNOWLEDGE && mode != Session.DUPS_OK_ACKNOWLEDGE) {
            return null;
        }
        session.lock.lock();
        try {
            if (current != l) {
                return null; // recover() inside the listener gave it back already
            }
            current = null;
        } finally {
            session.lock.unlock();
        }
        if (failed) {
            CompletableFuture<Void> f = changeAll(List.of(l), redeliveryDelay, true);
            track(f, "give a message back for redelivery");
            return f;
        }
        if (mode == Session.AUTO_ACKNOWLEDGE) {
            ackInBackground(List.of(l));
        } else {
            lazily(l);
        }
        return null;
    }

    /** A message the application will never see (expired, its own with noLocal): done for the group. */
    void discard(Leased l) {
        ackInBackground(List.of(l));
    }

    private void hold(Leased l) {
        session.lock.lock();
        try {
            delivered.add(l);
        } finally {
            session.lock.unlock();
        }
    }

    private void lazily(Leased l) {
        List<Leased> batch = null;
        session.lock.lock();
        try {
            lazy.add(l);
            if (lazy.size() >= DUPS_OK_BATCH) {
                batch = new ArrayList<>(lazy);
                lazy.clear();
            }
        } finally {
            session.lock.unlock();
        }
        if (batch != null) {
            ackInBackground(batch);
        }
    }

    // ---------------------------------------------------------------- acknowledge, recover, commit, rollback

    /** CLIENT_ACKNOWLEDGE: acknowledges every message the session delivered so far; other modes: nothing. */
    void acknowledge() throws JMSException {
        if (mode != Session.CLIENT_ACKNOWLEDGE) {
            return;
        }
        settle(take(), "acknowledge the consumed messages");
    }

    /** SESSION_TRANSACTED: acknowledges the messages consumed in the transaction. */
    void commitConsumed() throws JMSException {
        settle(take(), "acknowledge the messages consumed in the transaction");
    }

    /**
     * Gives back every message delivered and not acknowledged (CLIENT: all since the last acknowledge; AUTO and
     * DUPS_OK: the one a listener is processing and those not acknowledged yet; transacted: those consumed in the
     * transaction) for redelivery, and the consumers' prefetched messages uncounted, then waits for the broker.
     */
    void recover(Collection<WharfMessageConsumer> consumers) throws JMSException {
        List<Leased> redeliver;
        session.lock.lock();
        try {
            redeliver = new ArrayList<>(delivered);
            delivered.clear();
            redeliver.addAll(lazy);
            lazy.clear();
            if (current != null) {
                redeliver.add(current);
                current = null;
            }
        } finally {
            session.lock.unlock();
        }
        // the delivered messages first: a pop woken by their return finds them before anything newer
        await(changeAll(redeliver, redeliveryDelay, true), "give messages back for redelivery");
        List<CompletableFuture<Void>> done = new ArrayList<>();
        session.lock.lock();
        try {
            for (WharfMessageConsumer c : consumers) {
                done.add(release(c.group(), c.takeBuffered(), 0, false));
            }
        } finally {
            session.lock.unlock();
        }
        await(CompletableFuture.allOf(done.toArray(new CompletableFuture<?>[0])), "give prefetched messages back");
    }

    private List<Leased> take() {
        session.lock.lock();
        try {
            List<Leased> out = new ArrayList<>(delivered);
            delivered.clear();
            return out;
        } finally {
            session.lock.unlock();
        }
    }

    private void settle(List<Leased> messages, String what) throws JMSException {
        if (messages.isEmpty()) {
            return;
        }
        try {
            await(ackAll(messages), what);
        } catch (JMSException e) {
            session.lock.lock();
            try {
                delivered.addAll(0, messages);
            } finally {
                session.lock.unlock();
            }
            throw e;
        }
    }

    /**
     * Ends the session's deliveries when it closes: lazy acknowledgements are sent, delivered and unacknowledged
     * messages (CLIENT, transacted) are given back for redelivery, and the background acknowledgements are
     * awaited so none is lost with the connection.
     */
    void close() {
        List<Leased> redeliver;
        List<Leased> flush;
        session.lock.lock();
        try {
            redeliver = new ArrayList<>(delivered);
            delivered.clear();
            if (current != null) {
                // closed from its own listener: the message is acknowledged as the listener returns
                flush = new ArrayList<>(lazy);
                flush.add(current);
                current = null;
            } else {
                flush = new ArrayList<>(lazy);
            }
            lazy.clear();
        } finally {
            session.lock.unlock();
        }
        if (!flush.isEmpty()) {
            track(ackAll(flush), "acknowledge " + flush.size() + " message(s)");
        }
        if (!redeliver.isEmpty()) {
            track(changeAll(redeliver, 0, true), "give " + redeliver.size() + " unacknowledged message(s) back");
        }
        awaitInFlight();
    }

    /** Sends the DUPS_OK acknowledgements waiting (once a second). */
    void tick() {
        List<Leased> batch;
        session.lock.lock();
        try {
            if (lazy.isEmpty()) {
                return;
            }
            batch = new ArrayList<>(lazy);
            lazy.clear();
        } finally {
            session.lock.unlock();
        }
        ackInBackground(batch);
    }

    /** Every message delivered and not acknowledged yet (for lease renewal). Caller holds the session's lock. */
    void forEachHeld(Consumer<Leased> sink) {
        delivered.forEach(sink);
        lazy.forEach(sink);
        if (current != null) {
            sink.accept(current);
        }
    }

    /** Whether messages of a group whose name starts with {@code groupPrefix} wait for acknowledgement here. */
    boolean holds(String groupPrefix) {
        session.lock.lock();
        try {
            for (Leased l : delivered) {
                if (l.group().group().startsWith(groupPrefix)) {
                    return true;
                }
            }
            return false;
        } finally {
            session.lock.unlock();
        }
    }

    // ---------------------------------------------------------------- broker calls

    private void ackInBackground(List<Leased> messages) {
        background.add(messages);
    }

    private void track(CompletableFuture<Void> f, String what) {
        inFlight.add(f);
        f.whenComplete((v, e) -> {
            inFlight.remove(f);
            if (e != null) {
                LOG.warn("Could not {}: {}; they will be delivered again", what, e.getMessage());
            }
        });
    }

    /** Waits (bounded) until the acknowledgements sent in the background are confirmed. */
    void awaitInFlight() {
        background.awaitIdle(waitMillis);
        CompletableFuture<Void> all = CompletableFuture.allOf(inFlight.toArray(new CompletableFuture<?>[0]));
        try {
            all.get(waitMillis, TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (ExecutionException | TimeoutException e) {
            LOG.debug("Not every acknowledgement was confirmed before the session closed: {}", e.toString());
        }
    }

    private void await(CompletableFuture<Void> f, String what) throws JMSException {
        try {
            f.get(waitMillis, TimeUnit.MILLISECONDS);
        } catch (ExecutionException | TimeoutException | InterruptedException e) {
            throw JmsErrors.translate(what, e);
        }
    }

    private static CompletableFuture<Void> ackAll(List<Leased> messages) {
        List<CompletableFuture<Void>> sent = new ArrayList<>();
        byGroup(messages).forEach((group, list) -> {
            try {
                sent.add(group.ackAsync(list));
            } catch (RuntimeException e) {
                sent.add(CompletableFuture.failedFuture(e));
            }
        });
        return CompletableFuture.allOf(sent.toArray(new CompletableFuture<?>[0]));
    }

    private static CompletableFuture<Void> changeAll(List<Leased> messages, long invisibleTime, boolean count) {
        List<CompletableFuture<Void>> sent = new ArrayList<>();
        byGroup(messages).forEach((group, list) -> sent.add(release(group, list, invisibleTime, count)));
        return CompletableFuture.allOf(sent.toArray(new CompletableFuture<?>[0]));
    }

    /**
     * Gives messages of one group back: available again after {@code invisibleTime}, the delivery counted or not.
     * Never throws; failures complete the future exceptionally.
     */
    static CompletableFuture<Void> release(AckConsumer group, List<PoppedMessage> messages, long invisibleTime,
                                           boolean count) {
        if (messages.isEmpty()) {
            return CompletableFuture.completedFuture(null);
        }
        try {
            return group.changeInvisibleTimeAsync(messages, invisibleTime, count);
        } catch (RuntimeException e) {
            return CompletableFuture.failedFuture(e);
        }
    }

    private static Map<AckConsumer, List<PoppedMessage>> byGroup(List<Leased> messages) {
        Map<AckConsumer, List<PoppedMessage>> out = new IdentityHashMap<>();
        for (Leased l : messages) {
            out.computeIfAbsent(l.group(), g -> new ArrayList<>()).add(l.message());
        }
        return out;
    }
}
