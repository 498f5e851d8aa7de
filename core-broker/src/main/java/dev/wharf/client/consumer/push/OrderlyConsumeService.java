package dev.wharf.client.consumer.push;

import dev.wharf.client.ClientException;
import dev.wharf.client.impl.ClientInstance;
import dev.wharf.common.message.MessageExt;
import dev.wharf.common.message.MessageQueue;
import dev.wharf.common.util.NamedThreadFactory;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Consumes each queue in offset order with at most one thread at a time (different queues in parallel). In
 * clustering mode a queue is consumed only while this member holds its lock on the broker (LOCK_BATCH_MQ, renewed
 * every {@value #LOCK_INTERVAL_MILLIS} ms), so two members never consume one queue at once, not even while a
 * rebalance moves it. A failed batch suspends its queue for {@code suspendCurrentQueueTimeMillis} and is
 * consumed again, first; after {@code maxReconsumeTimes} failures it goes to the dead-letter queue.
 */
final class OrderlyConsumeService implements ConsumeService {

    private static final Logger log = LoggerFactory.getLogger(OrderlyConsumeService.class);
    static final long LOCK_INTERVAL_MILLIS = 20_000;
    /** A consume request yields its thread after this long, so one busy queue cannot starve others. */
    private static final long MAX_CONTINUOUS_MILLIS = 60_000;
    private static final int DEAD_LETTER = -1;

    private final PushEngine engine;
    private final OrderlyHandler handler;
    private final ThreadPoolExecutor executor;
    private final ScheduledThreadPoolExecutor scheduler;
    private final Map<MessageQueue, Object> queueLocks = new ConcurrentHashMap<>();

    OrderlyConsumeService(PushEngine engine, OrderlyHandler handler) {
        this.engine = engine;
        this.handler = handler;
        PushSettings s = engine.settings();
        this.executor = new ThreadPoolExecutor(s.consumeThreadMin(), Math.max(s.consumeThreadMin(),
                s.consumeThreadMax()), 60, TimeUnit.SECONDS, new LinkedBlockingQueue<>(),
                new NamedThreadFactory("wharf-consume-orderly-" + s.group()));
        this.scheduler = new ScheduledThreadPoolExecutor(1, new NamedThreadFactory("wharf-orderly-" + s.group()));
        this.scheduler.setRemoveOnCancelPolicy(true);
    }

    @Override
    public void start() {
        if (engine.settings().clustering()) {
            scheduler.scheduleWithFixedDelay(this::lockAll, 1_000, LOCK_INTERVAL_MILLIS, TimeUnit.MILLISECONDS);
        }
    }

    @Override
    public void shutdown(long awaitMillis) {
        scheduler.shutdownNow();
        executor.shutdown();
        try {
            if (awaitMillis > 0) {
                executor.awaitTermination(awaitMillis, TimeUnit.MILLISECONDS);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        executor.shutdownNow();
    }

    @Override
    public void submit(List<MessageExt> msgs, ProcessQueue pq, MessageQueue mq, boolean dispatch) {
        if (dispatch) {
            execute(pq, mq);
        }
    }

    private void execute(ProcessQueue pq, MessageQueue mq) {
        try {
            executor.execute(() -> consume(pq, mq));
        } catch (RejectedExecutionException e) {
            later(pq, mq, 100);
        }
    }

    private void later(ProcessQueue pq, MessageQueue mq, long delayMillis) {
        if (engine.isStopped()) {
            return;
        }
        try {
            scheduler.schedule(() -> execute(pq, mq), delayMillis, TimeUnit.MILLISECONDS);
        } catch (RejectedExecutionException e) {
            // shutting down
        }
    }

    /** Re-locks the queue, then consumes again: soon when the lock is ours, else after a while. */
    private void relockLater(ProcessQueue pq, MessageQueue mq, long delayMillis) {
        if (engine.isStopped()) {
            return;
        }
        try {
            scheduler.schedule(() -> {
                boolean locked = lock(mq);
                if (locked) {
                    pq.setLocked(true);
                }
                later(pq, mq, locked ? 10 : 3_000);
            }, delayMillis, TimeUnit.MILLISECONDS);
        } catch (RejectedExecutionException e) {
            // shutting down
        }
    }

    private void consume(ProcessQueue pq, MessageQueue mq) {
        if (pq.isDropped()) {
            return;
        }
        PushSettings settings = engine.settings();
        Object queueLock = queueLocks.computeIfAbsent(mq, k -> new Object());
        synchronized (queueLock) {
            long begin = System.currentTimeMillis();
            while (true) {
                if (pq.isDropped()) {
                    return;
                }
                long now = System.currentTimeMillis();
                if (settings.clustering() && (!pq.isLocked() || pq.isLockExpired(now))) {
                    relockLater(pq, mq, 10);
                    return;
                }
                if (now - begin > MAX_CONTINUOUS_MILLIS) {
                    later(pq, mq, 10);
                    return;
                }
                List<MessageExt> msgs = pq.takeMessages(settings.consumeMessageBatchMaxSize());
                if (msgs.isEmpty()) {
                    return;
                }
                engine.restoreRetryTopic(msgs);
                // the outcome is applied under the consume lock too, so a rebalance that takes the queue away
                // (under the same lock) commits an offset that includes this batch
                pq.consumeLock().lock();
                try {
                    if (pq.isDropped()) {
                        return;
                    }
                    OrderlyHandler.Outcome outcome;
                    try {
                        outcome = handler.consume(msgs, mq);
                    } catch (Throwable t) {
                        log.warn("Group {}: the orderly listener threw on {}; the queue is suspended and the "
                                + "messages consumed again: {}", settings.group(), mq, t.toString());
                        outcome = null;
                    }
                    if (!process(msgs, outcome, pq, mq)) {
                        return;
                    }
                } finally {
                    pq.consumeLock().unlock();
                }
            }
        }
    }

    /** @return whether to go on with the queue's next messages */
    private boolean process(List<MessageExt> msgs, OrderlyHandler.Outcome outcome, ProcessQueue pq, MessageQueue mq) {
        PushSettings settings = engine.settings();
        boolean success = outcome != null && outcome.success();
        if (!success && needsRetry(msgs)) {
            pq.makeMessagesToConsumeAgain(msgs);
            long suspend = outcome != null && outcome.suspendMillis() >= 0 ? outcome.suspendMillis()
                    : settings.suspendCurrentQueueTimeMillis();
            later(pq, mq, suspend);
            return false;
        }
        long offset = pq.commit();
        if (offset >= 0 && !pq.isDropped()) {
            engine.offsetStore().updateOffset(mq, offset, true);
        }
        return true;
    }

    /**
     * Counts another failure on each message; those past maxReconsumeTimes go to the dead-letter queue.
     *
     * @return whether any message must be consumed again
     */
    private boolean needsRetry(List<MessageExt> msgs) {
        boolean retry = false;
        for (MessageExt msg : msgs) {
            if (msg.getReconsumeTimes() >= engine.settings().maxReconsumeTimes()
                    && engine.settings().clustering() && engine.sendMessageBack(msg, DEAD_LETTER)) {
                continue;
            }
            msg.setReconsumeTimes(msg.getReconsumeTimes() + 1);
            retry = true;
        }
        return retry;
    }

    // ------------------------------------------------------------------ broker locks

    @Override
    public boolean acquire(MessageQueue mq) {
        return !engine.settings().clustering() || lock(mq);
    }

    private boolean lock(MessageQueue mq) {
        ClientInstance instance = engine.instance();
        String address = instance == null ? null : instance.masterAddress(mq.brokerName());
        if (address == null) {
            return false;
        }
        try {
            return instance.groupApi().lockBatch(address, engine.settings().group(), instance.clientId(), Set.of(mq),
                    instance.apiTimeoutMillis()).contains(mq);
        } catch (ClientException e) {
            log.warn("Group {}: locking {} failed: {}", engine.settings().group(), mq, e.getMessage());
            return false;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    /** Renews the locks of every owned queue, broker by broker; a queue whose lock is refused stops consuming. */
    private void lockAll() {
        ClientInstance instance = engine.instance();
        if (instance == null) {
            return;
        }
        Map<String, Set<MessageQueue>> byBroker = new HashMap<>();
        for (MessageQueue mq : engine.processQueues().keySet()) {
            byBroker.computeIfAbsent(mq.brokerName(), k -> new HashSet<>()).add(mq);
        }
        for (Map.Entry<String, Set<MessageQueue>> e : byBroker.entrySet()) {
            String address = instance.masterAddress(e.getKey());
            if (address == null) {
                continue;
            }
            try {
                Set<MessageQueue> locked = instance.groupApi().lockBatch(address, engine.settings().group(),
                        instance.clientId(), e.getValue(), instance.apiTimeoutMillis());
                for (MessageQueue mq : e.getValue()) {
                    ProcessQueue pq = engine.processQueues().get(mq);
                    if (pq != null) {
                        boolean ours = locked.contains(mq);
                        if (!ours && pq.isLocked()) {
                            log.warn("Group {}: lost the lock of {}; consumption of it pauses",
                                    engine.settings().group(), mq);
                        }
                        pq.setLocked(ours);
                    }
                }
            } catch (ClientException ex) {
                log.warn("Group {}: renewing queue locks on broker {} failed: {}", engine.settings().group(),
                        e.getKey(), ex.getMessage());
            } catch (InterruptedException ex) {
                Thread.currentThread().interrupt();
                return;
            }
        }
    }

    @Override
    public boolean release(MessageQueue mq, ProcessQueue pq) {
        boolean clustering = engine.settings().clustering();
        try {
            if (!pq.consumeLock().tryLock(1, TimeUnit.SECONDS)) {
                return false;
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
        try {
            try {
                engine.offsetStore().persist(mq);
            } catch (ClientException e) {
                log.warn("Group {}: committing the offset of released {} failed: {}", engine.settings().group(), mq,
                        e.getMessage());
            }
            engine.offsetStore().removeOffset(mq);
            if (clustering) {
                unlock(Set.of(mq));
            }
            queueLocks.remove(mq);
            return true;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        } finally {
            pq.consumeLock().unlock();
        }
    }

    @Override
    public void releaseAll(Set<MessageQueue> mqs) {
        if (engine.settings().clustering() && !mqs.isEmpty()) {
            try {
                unlock(mqs);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }

    private void unlock(Set<MessageQueue> mqs) throws InterruptedException {
        ClientInstance instance = engine.instance();
        if (instance == null) {
            return;
        }
        Map<String, Set<MessageQueue>> byBroker = new HashMap<>();
        for (MessageQueue mq : mqs) {
            byBroker.computeIfAbsent(mq.brokerName(), k -> new HashSet<>()).add(mq);
        }
        for (Map.Entry<String, Set<MessageQueue>> e : byBroker.entrySet()) {
            String address = instance.masterAddress(e.getKey());
            if (address == null) {
                continue;
            }
            try {
                instance.groupApi().unlockBatch(address, engine.settings().group(), instance.clientId(), e.getValue(),
                        instance.apiTimeoutMillis());
            } catch (ClientException ex) {
                log.info("Group {}: unlocking {} on broker {} failed ({}); the lock expires by itself",
                        engine.settings().group(), e.getValue(), e.getKey(), ex.getMessage());
            }
        }
    }
}
