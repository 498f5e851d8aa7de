package dev.wharf.broker.processor;

import dev.wharf.broker.ack.AckService;
import dev.wharf.broker.ack.AckService.PopCommand;
import dev.wharf.broker.ack.PopOutcome;
import dev.wharf.broker.filter.CompiledSubscription;
import dev.wharf.broker.group.SubscriptionGroupManager;
import dev.wharf.broker.longpolling.HeldPullRequest;
import dev.wharf.broker.longpolling.PullRequestHoldService;
import dev.wharf.broker.topic.TopicConfigManager;
import dev.wharf.common.util.RateLimitedLog;
import dev.wharf.protocol.RemotingCommand;
import dev.wharf.protocol.ResponseCode;
import dev.wharf.protocol.body.TopicConfig;
import dev.wharf.protocol.header.AckHeaders.InitMode;
import dev.wharf.protocol.header.AckHeaders.PopMessageRequest;
import dev.wharf.protocol.header.AckHeaders.PopMessageResponse;
import dev.wharf.remoting.RemotingChannel;
import dev.wharf.remoting.RequestProcessor;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.LongSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * POP_MESSAGE: leases available messages ({@link AckService#pop}) and answers with the stored records as the
 * body, sent from the mapped files without a heap copy, and their delivery counts.
 *
 * <p>A pop that finds nothing waits up to its pollTime: when its scan stopped at the per-queue budget it runs
 * again at once (more of the queue to look at); otherwise it is held by the broker's long polling
 * ({@link PullRequestHoldService}) on every queue it looked at, and runs again when a message arrives there, a
 * lease of one of them ends, or its time is up (answered POLLING_TIMEOUT). A pop with pollTime 0 that finds
 * nothing is answered NO_MESSAGE (after at most {@link #IMMEDIATE_ROUNDS} rounds of scanning).
 */
public final class PopMessageProcessor implements RequestProcessor {

    private static final Logger log = LoggerFactory.getLogger(PopMessageProcessor.class);
    /** A failing ack log or store fails every pop: one line per interval, not one per request. */
    private final RateLimitedLog warnings = RateLimitedLog.of(log);
    /** Extra scans a pop that may not wait gets when its scans stop at the budget. */
    static final int IMMEDIATE_ROUNDS = 8;

    /** One pop between its runs. */
    private static final class Pop {
        final RemotingChannel channel;
        final RemotingCommand request;
        final PopCommand command;
        final long deadline;
        final boolean mayWait;
        int immediateRounds;
        /** Run at least once: the group's state existed then, so a later run must not create it again. */
        boolean ranOnce;

        Pop(RemotingChannel channel, RemotingCommand request, PopCommand command, long deadline, boolean mayWait) {
            this.channel = channel;
            this.request = request;
            this.command = command;
            this.deadline = deadline;
            this.mayWait = mayWait;
        }
    }

    private final AckRequests checks;
    private final AckService ack;
    private final PullRequestHoldService holdService;
    private final Executor executor;
    private final LongSupplier clock;

    public PopMessageProcessor(String brokerName, TopicConfigManager topics, SubscriptionGroupManager groups,
                               AckService ack,
                               PullRequestHoldService holdService, Executor executor, LongSupplier clock) {
        this.checks = new AckRequests(brokerName, topics, groups, ack);
        this.ack = ack;
        this.holdService = holdService;
        this.executor = executor;
        this.clock = clock;
    }

    @Override
    public RemotingCommand process(RemotingChannel channel, RemotingCommand request) throws Exception {
        PopMessageRequest header = ProcessorSupport.header(request, PopMessageRequest.class);
        PopCommand command;
        try {
            command = command(header);
        } catch (AckRequests.Refused refused) {
            return refused.answer(request);
        }
        long deadline = clock.getAsLong() + header.pollTime();
        return run(new Pop(channel, request, command, deadline, header.pollTime() > 0));
    }

    private PopCommand command(PopMessageRequest header) throws AckRequests.Refused {
        AckRequests.names(header.consumerGroup(), header.topic());
        checks.consumableGroup(header.consumerGroup());
        TopicConfig topic = checks.readableTopic(header.topic());
        checks.queueId(topic, header.queueId(), true);
        AckRequests.maxMsgNums(header.maxMsgNums());
        AckRequests.range("invisibleTime", header.invisibleTime(), 1, AckRequests.MAX_INVISIBLE_TIME, "milliseconds");
        AckRequests.range("pollTime", header.pollTime(), 0, AckRequests.MAX_POLL_TIME, "milliseconds");
        if (header.maxReconsumeTimes() != null) {
            AckRequests.range("maxReconsumeTimes", header.maxReconsumeTimes(), 0, 10_000, "deliveries");
        }
        CompiledSubscription subscription = checks.subscription(header.expressionType(), header.expression());
        return new PopCommand(header.consumerGroup(), header.topic(), header.queueId(), topic.readQueueNums(),
                header.maxMsgNums(), header.invisibleTime(), subscription,
                header.initMode() == null ? InitMode.EARLIEST : header.initMode(), header.skipUnmatched(),
                header.maxReconsumeTimes());
    }

    /** Runs a pop; returns its answer, or null when it is answered later (waiting, or logging its leases). */
    private RemotingCommand run(Pop pop) {
        if (pop.ranOnce && !ack.hasGroup(pop.command.group(), pop.command.topic())) {
            // the subscription was deleted while the pop waited (JMS unsubscribe): answer it empty instead of
            // running it again, which would create the deleted state anew
            RemotingCommand response = ProcessorSupport.answer(pop.request, ResponseCode.NO_MESSAGE, null);
            return ProcessorSupport.writeHeader(response, new PopMessageResponse("", clock.getAsLong(),
                    pop.command.invisibleTime(), false));
        }
        pop.ranOnce = true;
        PopOutcome outcome = ack.pop(pop.command, pop.channel);
        if (outcome.messageCount() > 0) {
            return found(pop, outcome);
        }
        long now = clock.getAsLong();
        if (outcome.isMoreToScan() && (pop.mayWait && now < pop.deadline || pop.immediateRounds++ < IMMEDIATE_ROUNDS)) {
            resubmit(pop);
            return null;
        }
        if (!pop.mayWait || now >= pop.deadline || outcome.queueEnds().isEmpty()) {
            return empty(pop, outcome);
        }
        hold(pop, outcome);
        return null;
    }

    private RemotingCommand found(Pop pop, PopOutcome outcome) {
        RemotingCommand response = ProcessorSupport.answer(pop.request, ResponseCode.SUCCESS, null);
        ProcessorSupport.writeHeader(response, new PopMessageResponse(outcome.deliveryCounts(), outcome.popTime(),
                pop.command.invisibleTime(), outcome.isMoreToScan()));
        response.setBodyBuffers(outcome.bodies(), outcome::release);
        if (outcome.logged().isDone() && !outcome.logged().isCompletedExceptionally()) {
            return response;
        }
        // with SYNC_FLUSH the leases are answered once their log record is on disk
        outcome.logged().whenComplete((ignored, failure) -> {
            if (failure != null) {
                warnings.warn("not-logged", "The leases of a pop of {} on {} could not be logged: {}",
                        pop.command.group(), pop.command.topic(), failure.toString());
            }
            pop.channel.writeResponse(response);
        });
        return null;
    }

    private RemotingCommand empty(Pop pop, PopOutcome outcome) {
        int code = pop.mayWait ? ResponseCode.POLLING_TIMEOUT : ResponseCode.NO_MESSAGE;
        RemotingCommand response = ProcessorSupport.answer(pop.request, code, null);
        return ProcessorSupport.writeHeader(response, new PopMessageResponse("", outcome.popTime(),
                pop.command.invisibleTime(), outcome.isMoreToScan()));
    }

    /** Waits on every queue the pop looked at; the first wake-up runs it again. */
    private void hold(Pop pop, PopOutcome outcome) {
        AtomicBoolean armed = new AtomicBoolean(true);
        Runnable wake = () -> {
            if (armed.compareAndSet(true, false)) {
                resubmit(pop);
            }
        };
        CompiledSubscription subscription = pop.command.subscription();
        for (long[] queue : outcome.queueEnds()) {
            holdService.suspend(new HeldPullRequest(pop.command.topic(), (int) queue[0], queue[1], pop.deadline,
                    subscription::matchesTagsCode, wake));
        }
        if (outcome.returnedSinceScan()) {
            wake.run(); // a lease ended between the scan and the registration
        }
    }

    private void resubmit(Pop pop) {
        if (!pop.channel.isActive()) {
            return;
        }
        try {
            executor.execute(() -> {
                RemotingCommand response;
                try {
                    response = run(pop);
                } catch (RuntimeException e) {
                    warnings.warn("held-failed", "A held pop from {} failed when run again: {}",
                            pop.channel.remoteAddress(), e.toString());
                    response = ProcessorSupport.answer(pop.request, ResponseCode.SYSTEM_ERROR, e.getMessage());
                }
                if (response != null) {
                    pop.channel.writeResponse(response);
                }
            });
        } catch (RejectedExecutionException e) {
            pop.channel.writeResponse(ProcessorSupport.answer(pop.request, ResponseCode.SYSTEM_BUSY,
                    "[OVERLOAD] broker busy, try later"));
        }
    }
}
