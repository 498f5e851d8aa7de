package dev.wharf.client.consumer.push;

import dev.wharf.client.ClientException;
import dev.wharf.client.consumer.offset.OffsetStore;
import dev.wharf.client.consumer.offset.ReadOffsetType;
import dev.wharf.client.impl.ClientInstance;
import dev.wharf.client.impl.PullReply;
import dev.wharf.client.impl.RemotingCalls;
import dev.wharf.common.util.NamedThreadFactory;
import dev.wharf.protocol.body.Heartbeat.SubscriptionData;
import dev.wharf.protocol.header.MessageHeaders.PullMessageRequest;
import dev.wharf.protocol.header.MessageHeaders.PullSysFlag;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The pull loop: one thread takes pull requests (one per owned queue) and issues asynchronous long-polling pulls;
 * each answer feeds the process queue and the consume service and puts the request back at once. A queue whose
 * process queue is too full (messages, bytes, or offset span) waits {@value #FLOW_CONTROL_DELAY_MILLIS} ms
 * before its next pull. The current consumer offset rides along with every pull (COMMIT_OFFSET).
 */
final class PullService implements Runnable {

    private static final Logger log = LoggerFactory.getLogger(PullService.class);
    static final long FLOW_CONTROL_DELAY_MILLIS = 50;
    private static final long PAUSED_DELAY_MILLIS = 1_000;
    private static final long NOT_LOCKED_DELAY_MILLIS = 1_000;

    private final PushEngine engine;
    private final LinkedBlockingQueue<PullRequest> requests = new LinkedBlockingQueue<>();
    private final ScheduledThreadPoolExecutor delays;
    private final Thread thread;
    private volatile boolean stopped;
    private long flowControlEvents;

    PullService(PushEngine engine) {
        this.engine = engine;
        String group = engine.settings().group();
        this.delays = new ScheduledThreadPoolExecutor(1, new NamedThreadFactory("wharf-pull-delay-" + group));
        this.delays.setRemoveOnCancelPolicy(true);
        this.thread = new Thread(this, "wharf-pull-" + group);
        this.thread.setDaemon(true);
    }

    void start() {
        thread.start();
    }

    void shutdown() {
        stopped = true;
        delays.shutdownNow();
        thread.interrupt();
        try {
            thread.join(5_000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    void executeNow(PullRequest request) {
        if (!stopped) {
            requests.offer(request);
        }
    }

    void executeLater(PullRequest request, long delayMillis) {
        if (stopped) {
            return;
        }
        try {
            delays.schedule(() -> executeNow(request), delayMillis, TimeUnit.MILLISECONDS);
        } catch (java.util.concurrent.RejectedExecutionException e) {
            // shutting down
        }
    }

    @Override
    public void run() {
        while (!stopped) {
            PullRequest request;
            try {
                request = requests.take();
            } catch (InterruptedException e) {
                break;
            }
            try {
                pull(request);
            } catch (RuntimeException e) {
                log.warn("Group {}: pulling {} failed: {}", engine.settings().group(), request.mq, e.toString());
                executeLater(request, engine.settings().pullTimeDelayMillisWhenException());
            }
        }
    }

    private void pull(PullRequest request) {
        ProcessQueue pq = request.pq;
        if (pq.isDropped() || stopped) {
            return;
        }
        PushSettings settings = engine.settings();
        pq.markPulled(System.currentTimeMillis());
        if (engine.isPaused()) {
            executeLater(request, PAUSED_DELAY_MILLIS);
            return;
        }
        if (pq.messageCount() > settings.pullThresholdForQueue()
                || pq.messageSize() > (long) settings.pullThresholdSizeForQueueMiB() * 1024 * 1024
                || (!settings.orderly() && pq.maxSpan() > settings.consumeConcurrentlyMaxSpan())) {
            if (++flowControlEvents % 1000 == 1) {
                log.info("Group {}: flow control on {} ({} messages, {} bytes, span {}); {} pauses so far",
                        settings.group(), request.mq, pq.messageCount(), pq.messageSize(), pq.maxSpan(),
                        flowControlEvents);
            }
            executeLater(request, FLOW_CONTROL_DELAY_MILLIS);
            return;
        }
        if (settings.orderly() && settings.clustering() && !pq.isLocked()) {
            executeLater(request, NOT_LOCKED_DELAY_MILLIS);
            return;
        }
        SubscriptionData subscription = engine.subscription(request.mq.topic());
        ClientInstance instance = engine.instance();
        String address = instance == null ? null : instance.readAddress(request.mq);
        if (subscription == null || address == null) {
            executeLater(request, settings.pullTimeDelayMillisWhenException());
            return;
        }
        OffsetStore store = engine.offsetStore();
        int sysFlag = PullSysFlag.SUSPEND | PullSysFlag.SUBSCRIPTION;
        long commitOffset = 0;
        // a pull commits the offset only to the master: a slave never takes offsets carried by pulls, and the
        // offset store commits to a slave explicitly while the group has no master
        if (settings.clustering() && address.equals(instance.masterAddress(request.mq.brokerName()))) {
            try {
                commitOffset = store.readOffset(request.mq, ReadOffsetType.READ_FROM_MEMORY);
            } catch (ClientException | InterruptedException e) {
                commitOffset = -1;
            }
            if (commitOffset > 0) {
                sysFlag |= PullSysFlag.COMMIT_OFFSET;
            } else {
                commitOffset = 0;
            }
        }
        PullMessageRequest header = new PullMessageRequest(settings.group(), request.mq.topic(),
                request.mq.queueId(), request.nextOffset(), settings.pullBatchSize(), sysFlag, commitOffset,
                settings.brokerSuspendMaxTimeMillis(), subscription.subString(), subscription.subVersion(),
                subscription.expressionType().name());
        instance.messageApi().pullAsync(address, request.mq.brokerName(), header, subscription,
                        settings.consumerTimeoutMillisWhenSuspend())
                .whenComplete((reply, error) -> onReply(request, address, reply, error));
    }

    private void onReply(PullRequest request, String address, PullReply reply, Throwable error) {
        if (stopped || request.pq.isDropped()) {
            return;
        }
        PushSettings settings = engine.settings();
        ClientInstance instance = engine.instance();
        if (error != null) {
            ClientException e = RemotingCalls.asClientException(error);
            if (instance != null && e.responseCode() == ClientException.NO_RESPONSE) {
                // the broker may be gone: read the group's other brokers meanwhile, and look at the route
                instance.reads().failed(address);
                instance.refreshRouteSoon(request.mq.topic());
            }
            if (request.markFailing()) {
                log.warn("Group {}: pulling {} failed, retrying every {} ms: {}", settings.group(), request.mq,
                        settings.pullTimeDelayMillisWhenException(), e.getMessage());
            }
            executeLater(request, settings.pullTimeDelayMillisWhenException());
            return;
        }
        request.markSucceeded();
        if (instance != null) {
            instance.reads().succeeded(address);
            instance.reads().suggest(request.mq, reply.suggestWhichBrokerId());
        }
        ProcessQueue pq = request.pq;
        switch (reply.kind()) {
            case FOUND -> {
                request.nextOffset(reply.nextBeginOffset());
                if (reply.messages().isEmpty()) {
                    correctOffset(request);
                    executeNow(request);
                    return;
                }
                boolean dispatch = pq.putMessages(reply.messages());
                engine.consumeService().submit(reply.messages(), pq, request.mq, dispatch);
                if (settings.pullIntervalMillis() > 0) {
                    executeLater(request, settings.pullIntervalMillis());
                } else {
                    executeNow(request);
                }
            }
            case NO_NEW_MSG, NO_MATCHED_MSG -> {
                request.nextOffset(reply.nextBeginOffset());
                correctOffset(request);
                executeNow(request);
            }
            case OFFSET_ILLEGAL -> {
                log.warn("Group {}: offset {} of {} is outside the queue [{}, {}]; continuing from {}",
                        settings.group(), request.nextOffset(), request.mq, reply.minOffset(), reply.maxOffset(),
                        reply.nextBeginOffset());
                request.nextOffset(reply.nextBeginOffset());
                if (pq.messageCount() == 0) {
                    engine.offsetStore().updateOffset(request.mq, reply.nextBeginOffset(), false);
                }
                executeNow(request);
            }
        }
    }

    /** Nothing held and nothing new: the offset may move to where the next pull starts (filtered messages). */
    private void correctOffset(PullRequest request) {
        if (request.pq.messageCount() == 0) {
            engine.offsetStore().updateOffset(request.mq, request.nextOffset(), true);
        }
    }
}
