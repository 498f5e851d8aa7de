package dev.wharf.client.consumer.push;

import dev.wharf.client.ClientException;
import dev.wharf.common.message.MessageExt;
import dev.wharf.common.message.MessageQueue;
import dev.wharf.common.util.NamedThreadFactory;
import java.util.ArrayList;
import java.util.List;
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
 * Consumes batches on a thread pool, in any order. After each batch the queue's offset becomes the lowest offset
 * still in its process queue, so a slow message holds the offset back (a crash redelivers it and everything
 * after it) but never lets it pass. Failed messages go back to the broker for a delayed retry
 * (CONSUMER_SEND_MSG_BACK); when the broker cannot take them they are consumed again here after
 * {@value #LOCAL_RETRY_DELAY_MILLIS} ms and keep the offset back meanwhile. A batch consumed longer than the
 * consume timeout is sent back and let go.
 */
final class ConcurrentConsumeService implements ConsumeService {

    private static final Logger log = LoggerFactory.getLogger(ConcurrentConsumeService.class);
    static final long LOCAL_RETRY_DELAY_MILLIS = 5_000;
    private static final long TIMEOUT_SCAN_MILLIS = 20_000;

    private final PushEngine engine;
    private final ConcurrentHandler handler;
    private final ThreadPoolExecutor executor;
    private final ScheduledThreadPoolExecutor scheduler;
    private final Set<ConsumeRequest> inFlight = ConcurrentHashMap.newKeySet();

    ConcurrentConsumeService(PushEngine engine, ConcurrentHandler handler) {
        this.engine = engine;
        this.handler = handler;
        PushSettings s = engine.settings();
        this.executor = new ThreadPoolExecutor(s.consumeThreadMin(), Math.max(s.consumeThreadMin(),
                s.consumeThreadMax()), 60, TimeUnit.SECONDS, new LinkedBlockingQueue<>(),
                new NamedThreadFactory("wharf-consume-" + s.group()));
        this.scheduler = new ScheduledThreadPoolExecutor(1, new NamedThreadFactory("wharf-consume-delay-" + s.group()));
        this.scheduler.setRemoveOnCancelPolicy(true);
    }

    @Override
    public void start() {
        long scan = Math.min(TIMEOUT_SCAN_MILLIS, engine.settings().consumeTimeoutMillis());
        scheduler.scheduleWithFixedDelay(this::sendBackTimedOut, scan, scan, TimeUnit.MILLISECONDS);
    }

    @Override
    public void shutdown(long awaitMillis) {
        scheduler.shutdownNow();
        executor.shutdown();
        try {
            if (awaitMillis > 0 && !executor.awaitTermination(awaitMillis, TimeUnit.MILLISECONDS)) {
                log.info("Group {}: consumption still in progress after {} ms; those messages will be delivered "
                        + "again", engine.settings().group(), awaitMillis);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        executor.shutdownNow();
    }

    @Override
    public void submit(List<MessageExt> msgs, ProcessQueue pq, MessageQueue mq, boolean dispatch) {
        int batch = engine.settings().consumeMessageBatchMaxSize();
        for (int from = 0; from < msgs.size(); from += batch) {
            List<MessageExt> part = msgs.subList(from, Math.min(msgs.size(), from + batch));
            execute(new ConsumeRequest(new ArrayList<>(part), pq, mq));
        }
    }

    private void execute(ConsumeRequest request) {
        try {
            executor.execute(request);
        } catch (RejectedExecutionException e) {
            if (!engine.isStopped()) {
                submitLater(request.msgs, request.pq, request.mq);
            }
        }
    }

    private void submitLater(List<MessageExt> msgs, ProcessQueue pq, MessageQueue mq) {
        try {
            scheduler.schedule(() -> execute(new ConsumeRequest(msgs, pq, mq)), LOCAL_RETRY_DELAY_MILLIS,
                    TimeUnit.MILLISECONDS);
        } catch (RejectedExecutionException e) {
            // shutting down: the messages stay uncommitted and are delivered again
        }
    }

    @Override
    public boolean acquire(MessageQueue mq) {
        return true;
    }

    @Override
    public boolean release(MessageQueue mq, ProcessQueue pq) {
        try {
            engine.offsetStore().persist(mq);
        } catch (ClientException e) {
            log.warn("Group {}: committing the offset of released {} failed ({}); its new owner may see some "
                    + "messages again", engine.settings().group(), mq, e.getMessage());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        engine.offsetStore().removeOffset(mq);
        return true;
    }

    @Override
    public void releaseAll(Set<MessageQueue> mqs) {
        // nothing is held on the broker
    }

    private void process(ConsumeRequest request, ConcurrentHandler.Outcome outcome) {
        List<MessageExt> msgs = request.msgs;
        int ackIndex = outcome.success() ? Math.min(outcome.ackIndex(), msgs.size() - 1) : -1;
        List<MessageExt> again = new ArrayList<>();
        PushSettings settings = engine.settings();
        for (int i = ackIndex + 1; i < msgs.size(); i++) {
            MessageExt msg = msgs.get(i);
            boolean handedOver = settings.clustering() && engine.sendMessageBack(msg, outcome.delayLevel());
            if (handedOver) {
                continue;
            }
            if (!settings.clustering() && msg.getReconsumeTimes() >= settings.maxReconsumeTimes()) {
                log.warn("Group {} (broadcasting): message {} failed {} times and is given up", settings.group(),
                        msg.getMsgId(), msg.getReconsumeTimes() + 1);
                continue;
            }
            msg.setReconsumeTimes(msg.getReconsumeTimes() + 1);
            again.add(msg);
        }
        List<MessageExt> done = new ArrayList<>(msgs.size());
        for (MessageExt msg : msgs) {
            if (!containsSame(again, msg)) {
                done.add(msg);
            }
        }
        long offset = request.pq.removeMessages(done);
        if (offset >= 0 && !request.pq.isDropped()) {
            engine.offsetStore().updateOffset(request.mq, offset, true);
        }
        if (!again.isEmpty()) {
            submitLater(again, request.pq, request.mq);
        }
    }

    private static boolean containsSame(List<MessageExt> list, MessageExt msg) {
        for (MessageExt m : list) {
            if (m == msg) {
                return true;
            }
        }
        return false;
    }

    /** Sends back batches consumed for longer than the consume timeout, so they are retried elsewhere. */
    private void sendBackTimedOut() {
        if (!engine.settings().clustering()) {
            return;
        }
        long limit = System.currentTimeMillis() - engine.settings().consumeTimeoutMillis();
        for (ConsumeRequest request : inFlight) {
            if (request.startedAt > limit || request.expired) {
                continue;
            }
            List<MessageExt> sent = new ArrayList<>();
            for (MessageExt msg : request.msgs) {
                if (engine.sendMessageBack(msg, 0)) {
                    sent.add(msg);
                }
            }
            if (sent.size() == request.msgs.size()) {
                request.expired = true;
                long offset = request.pq.removeMessages(sent);
                if (offset >= 0 && !request.pq.isDropped()) {
                    engine.offsetStore().updateOffset(request.mq, offset, true);
                }
                log.warn("Group {}: {} message(s) of {} were consumed for longer than {} ms and were sent back for "
                        + "retry", engine.settings().group(), sent.size(), request.mq,
                        engine.settings().consumeTimeoutMillis());
            }
        }
    }

    /** One batch on its way through the listener. */
    private final class ConsumeRequest implements Runnable {

        final List<MessageExt> msgs;
        final ProcessQueue pq;
        final MessageQueue mq;
        volatile long startedAt;
        volatile boolean expired;

        ConsumeRequest(List<MessageExt> msgs, ProcessQueue pq, MessageQueue mq) {
            this.msgs = msgs;
            this.pq = pq;
            this.mq = mq;
        }

        @Override
        public void run() {
            if (pq.isDropped()) {
                return;
            }
            engine.restoreRetryTopic(msgs);
            startedAt = System.currentTimeMillis();
            inFlight.add(this);
            ConcurrentHandler.Outcome outcome;
            try {
                outcome = handler.consume(msgs, mq);
            } catch (Throwable t) {
                log.warn("Group {}: the listener threw on {} message(s) of {}; they will be retried: {}",
                        engine.settings().group(), msgs.size(), mq, t.toString());
                outcome = null;
            } finally {
                inFlight.remove(this);
            }
            if (outcome == null) {
                outcome = ConcurrentHandler.Outcome.failed();
            }
            if (pq.isDropped() || expired) {
                return; // the queue moved to another member (or the batch was already sent back): redelivered there
            }
            process(this, outcome);
        }
    }
}
