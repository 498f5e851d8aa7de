package dev.wharf.broker.longpolling;

import dev.wharf.common.util.ServiceThread;
import dev.wharf.store.MessageStore;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.LongSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Holds pulls that found nothing until their queue gets a message or their time runs out. The store's
 * dispatcher calls {@link #notifyMessageArriving} right after it indexed a message; a periodic check (and a
 * wake-up when an earlier deadline arrives) answers timed-out pulls and catches anything the notifications
 * missed.
 *
 * <p>Held pulls are kept per topic and queue id (a map of maps, so a notification allocates nothing when no
 * pull waits on its queue). Thread-safe: each queue's list has its own monitor.
 */
public final class PullRequestHoldService extends ServiceThread {

    private static final Logger log = LoggerFactory.getLogger(PullRequestHoldService.class);

    private static final class Waiting {
        private final List<HeldPullRequest> requests = new ArrayList<>(2);

        synchronized void add(HeldPullRequest request) {
            requests.add(request);
        }

        synchronized List<HeldPullRequest> takeAll() {
            if (requests.isEmpty()) {
                return List.of();
            }
            List<HeldPullRequest> out = new ArrayList<>(requests);
            requests.clear();
            return out;
        }

        synchronized void addAll(List<HeldPullRequest> back) {
            requests.addAll(back);
        }

        synchronized int size() {
            return requests.size();
        }
    }

    private final ConcurrentHashMap<String, ConcurrentHashMap<Integer, Waiting>> table = new ConcurrentHashMap<>();
    private final MessageStore store;
    private final long checkIntervalMillis;
    private final LongSupplier clock;
    /** The earliest deadline the service will wake up for; Long.MAX_VALUE when none is known. */
    private final AtomicLong nextDeadline = new AtomicLong(Long.MAX_VALUE);

    /**
     * @param store               to read queue ends on the periodic check
     * @param checkIntervalMillis longest time between two checks of every held pull
     */
    public PullRequestHoldService(MessageStore store, long checkIntervalMillis, LongSupplier clock) {
        this.store = store;
        this.checkIntervalMillis = checkIntervalMillis;
        this.clock = clock;
    }

    @Override
    public String getServiceName() {
        return "wharf-pull-hold";
    }

    /** Holds a pull until news or its deadline. */
    public void suspend(HeldPullRequest request) {
        // compute (not computeIfAbsent + add): atomic with checkAll's removal of empty lists
        table.computeIfAbsent(request.topic(), t -> new ConcurrentHashMap<>())
                .compute(request.queueId(), (q, waiting) -> {
                    Waiting w = waiting != null ? waiting : new Waiting();
                    w.add(request);
                    return w;
                });
        // a message stored between the pull's read and this registration would otherwise wait for the next check
        long max = store.getMaxOffsetInQueue(request.topic(), request.queueId());
        if (max > request.offset()) {
            notifyMessageArriving(request.topic(), request.queueId(), max, 0L, false);
        }
        long deadline = request.deadlineMillis();
        long current = nextDeadline.get();
        while (deadline < current) {
            if (nextDeadline.compareAndSet(current, deadline)) {
                wakeup();
                break;
            }
            current = nextDeadline.get();
        }
    }

    /**
     * A message was indexed: wakes the pulls of that queue waiting below {@code maxOffset} whose subscription
     * may match {@code tagsCode}, and the ones whose time ran out.
     *
     * @param maxOffset the queue's end after the message (its queue offset + 1)
     */
    public void notifyMessageArriving(String topic, int queueId, long maxOffset, long tagsCode) {
        notifyMessageArriving(topic, queueId, maxOffset, tagsCode, true);
    }

    private void notifyMessageArriving(String topic, int queueId, long maxOffset, long tagsCode, boolean checkTag) {
        Map<Integer, Waiting> queues = table.get(topic);
        if (queues == null) {
            return;
        }
        Waiting waiting = queues.get(queueId);
        if (waiting == null) {
            return;
        }
        List<HeldPullRequest> requests = waiting.takeAll();
        if (requests.isEmpty()) {
            return;
        }
        long now = clock.getAsLong();
        List<HeldPullRequest> keep = null;
        for (HeldPullRequest request : requests) {
            boolean news = maxOffset > request.offset() && (!checkTag || request.tagsCodeFilter().test(tagsCode));
            if (news || now >= request.deadlineMillis()) {
                wake(request);
            } else {
                if (keep == null) {
                    keep = new ArrayList<>(requests.size());
                }
                keep.add(request);
            }
        }
        if (keep != null) {
            waiting.addAll(keep);
        }
    }

    private void wake(HeldPullRequest request) {
        try {
            request.onWake().run();
        } catch (RuntimeException e) {
            log.warn("Waking a held pull of {}#{} failed: {}", request.topic(), request.queueId(), e.toString());
        }
    }

    @Override
    public void run() {
        while (!isStopped()) {
            long now = clock.getAsLong();
            long wait = Math.min(checkIntervalMillis, Math.max(1L, nextDeadline.get() - now));
            waitForRunning(wait);
            try {
                checkAll();
            } catch (RuntimeException e) {
                log.warn("Checking held pulls failed: {}", e.toString());
            } catch (Throwable t) {
                store.health().fail(getServiceName(), t);
            }
        }
    }

    /** Answers what has news or timed out; recomputes the next deadline. */
    void checkAll() {
        nextDeadline.set(Long.MAX_VALUE);
        for (Map.Entry<String, ConcurrentHashMap<Integer, Waiting>> topic : table.entrySet()) {
            for (Map.Entry<Integer, Waiting> queue : topic.getValue().entrySet()) {
                Waiting waiting = queue.getValue();
                if (waiting.size() == 0) {
                    topic.getValue().computeIfPresent(queue.getKey(), (q, w) -> w.size() == 0 ? null : w);
                    continue;
                }
                long max = store.getMaxOffsetInQueue(topic.getKey(), queue.getKey());
                notifyMessageArriving(topic.getKey(), queue.getKey(), max, 0L, false);
                for (HeldPullRequest left : snapshot(waiting)) {
                    nextDeadline.accumulateAndGet(left.deadlineMillis(), Math::min);
                }
            }
        }
    }

    private static List<HeldPullRequest> snapshot(Waiting waiting) {
        synchronized (waiting) {
            return new ArrayList<>(waiting.requests);
        }
    }

    /** Pulls held now (for statistics and tests). */
    public int heldCount() {
        int count = 0;
        for (ConcurrentHashMap<Integer, Waiting> queues : table.values()) {
            for (Waiting waiting : queues.values()) {
                count += waiting.size();
            }
        }
        return count;
    }

    /** Wakes every held pull (they answer as they find the queue), e.g. before shutting down. */
    public void wakeAll() {
        for (ConcurrentHashMap<Integer, Waiting> queues : table.values()) {
            for (Waiting waiting : queues.values()) {
                waiting.takeAll().forEach(this::wake);
            }
        }
    }
}
