package dev.wharf.client.producer;

import dev.wharf.client.ClientException;
import dev.wharf.client.impl.ClientInstance;
import dev.wharf.client.impl.RemotingCalls;
import dev.wharf.client.route.SilentMasters;
import dev.wharf.client.route.SilentMasters.Permit;
import dev.wharf.client.route.TopicPublishInfo;
import dev.wharf.common.message.MessageQueue;
import dev.wharf.protocol.ResponseCode;
import dev.wharf.protocol.body.RouteData.BrokerData;
import dev.wharf.protocol.body.RouteData.TopicRouteData;
import dev.wharf.protocol.header.MessageHeaders.SendMessageRequest;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;

/**
 * The producer's send paths: queue choice, retries, latency bookkeeping and the async in-flight bound. One per
 * started producer; thread-safe.
 */
final class MessageSender {

    /** Queue id that lets the broker choose (used before the topic has a route, when the broker creates it). */
    private static final int BROKER_CHOOSES = -1;
    private static final long MASTER_ID = 0L;
    /** First pause before another try after a failure that stored nothing (doubling to the max). */
    private static final long PAUSE_MIN_MILLIS = 50;
    private static final long PAUSE_MAX_MILLIS = 500;
    /** Pause between route fetches while a send waits for a silent master's replacement. */
    private static final long HOLD_PAUSE_MILLIS = 150;

    private final Producer producer;
    private final ClientInstance instance;
    private final Semaphore asyncSlots;

    MessageSender(Producer producer, ClientInstance instance, Semaphore asyncSlots) {
        this.producer = producer;
        this.instance = instance;
        this.asyncSlots = asyncSlots;
    }

    SendResult sendSync(OutgoingMessage out, long timeoutMillis) throws ClientException, InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(timeoutMillis);
        TopicPublishInfo info = awaitPublishInfo(out.topic, deadline);
        return sendWithRetries(out, info, null, Math.max(1, millisLeft(deadline)));
    }

    /**
     * The topic's publish info; while no master serves it (a failover between the old master's eviction and the new
     * one's registration) it waits for a fresh route until the deadline.
     */
    private TopicPublishInfo awaitPublishInfo(String topic, long deadline)
            throws ClientException, InterruptedException {
        for (int tries = 0; ; tries++) {
            try {
                return requirePublishInfo(topic);
            } catch (ClientException e) {
                if (!e.storedNothing() || millisLeft(deadline) <= 0) {
                    throw e;
                }
                instance.refreshRouteSoon(topic);
                pause(Math.min(PAUSE_MAX_MILLIS, PAUSE_MIN_MILLIS << Math.min(4, tries)), deadline);
            }
        }
    }

    /**
     * Sends with retries until the deadline. A failure that may have stored the message (no answer after the
     * request went out, a broker error) uses one of the {@code 1 + retryTimesWhenSendFailed} attempts, preferably on
     * another broker: the message may then be stored twice (at-least-once). A failure that certainly stored nothing
     * (no master known, no connection, the broker refused it as unavailable: a failover in progress) uses none:
     * the send waits a little, takes the freshest route and tries again while time remains, so a new master elected
     * within the send timeout takes the message without the caller seeing an error.
     *
     * @param pinned the queue to send to (its broker name's current master), or null to choose one per attempt
     */
    private SendResult sendWithRetries(OutgoingMessage out, TopicPublishInfo routed, MessageQueue pinned,
                                       long timeoutMillis) throws ClientException, InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(timeoutMillis);
        int attempts = 1 + producer.getRetryTimesWhenSendFailed();
        TopicPublishInfo info = routed;
        String avoid = null;
        ClientException last = null;
        int made = 0;
        int mayHaveStored = 0;
        int storedNothing = 0;
        while (mayHaveStored < attempts) {
            long remaining = millisLeft(deadline);
            if (remaining <= 0) {
                break;
            }
            MessageQueue mq = pinned != null ? pinned : select(info, avoid);
            long start = System.nanoTime();
            String address = null;
            Permit permit = Permit.SEND;
            try {
                address = instance.requireMasterAddress(mq.brokerName(), out.topic);
                permit = instance.silentMasters().permit(address);
                if (permit == Permit.HOLD) {
                    // its master left a send unanswered moments ago (paused or cut off, most likely, while the
                    // controllers elect another): nothing is sent, so waiting for the new master's route costs no
                    // duplicate
                    last = heldBack(mq, address, out.topic);
                    avoid = mq.brokerName();
                    storedNothing++;
                    if (pinned != null || storedNothing > 1) {
                        pause(HOLD_PAUSE_MILLIS, deadline);
                        refreshRoute(out.topic);
                    } else {
                        instance.refreshRouteSoon(out.topic); // another broker name may take this send now
                    }
                    if (pinned == null) {
                        info = freshest(out.topic, info);
                    }
                    continue;
                }
                made++;
                SendResult result = Producer.toResult(instance.messageApi().send(address, header(out, mq), out.body,
                        attemptMillis(remaining)), out, mq);
                instance.silentMasters().answered(address);
                recordLatency(mq, start, false);
                if (result.sendStatus() != SendStatus.SEND_OK && pinned == null
                        && producer.isRetryAnotherBrokerWhenNotStoreOK() && mayHaveStored + 1 < attempts) {
                    avoid = mq.brokerName();
                    mayHaveStored++;
                    continue;
                }
                return result;
            } catch (ClientException e) {
                noteOutcome(address, e);
                recordLatency(mq, start, true);
                last = e;
                avoid = mq.brokerName();
                if (!retriable(e)) {
                    throw e;
                }
                if (storedNothing(e)) {
                    storedNothing++;
                    if (storedNothing > 1) {
                        pause(Math.min(PAUSE_MAX_MILLIS, PAUSE_MIN_MILLIS << Math.min(4, storedNothing - 2)),
                                deadline);
                    }
                    if (pinned == null) {
                        info = freshest(out.topic, info);
                    }
                } else {
                    mayHaveStored++;
                }
            }
        }
        throw failedAfterRetries(out, made, timeoutMillis, last);
    }

    /** One attempt's timeout: what is left of the send's, at most {@code sendAttemptTimeout}. */
    private long attemptMillis(long remainingMillis) {
        return Math.max(1, Math.min(remainingMillis, producer.getSendAttemptTimeout()));
    }

    /**
     * Records what a failed attempt says about its master's address: a request that went out and got no answer
     * marks it silent; an answer (a refusal) clears it; a probe that could not even connect lets another probe.
     */
    private void noteOutcome(String address, ClientException e) {
        if (address == null) {
            return;
        }
        SilentMasters silent = instance.silentMasters();
        if (!e.isNoResponse()) {
            silent.answered(address);
        } else if (!e.storedNothing()) {
            silent.silent(address);
        } else {
            silent.probeEnded(address);
        }
    }

    private ClientException heldBack(MessageQueue mq, String address, String topic) {
        return new ClientException(ClientException.NO_RESPONSE, "The master " + address + " of broker \""
                + mq.brokerName() + "\" left a send unanswered in the last " + instance.silentMasters().quietMillis()
                + " ms and the NameServer's route for topic " + topic + " names no other master yet; waited for a"
                + " failover. Check that the broker runs (not paused, reachable); with controllers a replica takes"
                + " over once the master's heartbeats lapse.", null, true);
    }

    /** Fetches the topic's route now (the caller waits anyway); a NameServer that fails leaves the cached one. */
    private void refreshRoute(String topic) throws InterruptedException {
        try {
            instance.updateRoute(topic);
        } catch (ClientException e) {
            // the cached route stays; the next attempt tries again
        }
    }

    /**
     * Whether a failed send certainly stored nothing: no connection could carry it, or the broker refused it as
     * unavailable (a replica that is not, or no longer, the master; a master fenced or without enough replicas).
     */
    static boolean storedNothing(ClientException e) {
        return e.storedNothing();
    }

    /** The topic's publish info as the route table has it now, else {@code known}. */
    private TopicPublishInfo freshest(String topic, TopicPublishInfo known) throws InterruptedException {
        try {
            TopicPublishInfo fresh = instance.publishInfo(topic);
            return fresh != null ? fresh : known;
        } catch (ClientException e) {
            return known; // no route now: the next attempt fails as "no master" and pauses again
        }
    }

    private static void pause(long millis, long deadlineNanos) throws InterruptedException {
        long sleep = Math.min(millis, millisLeft(deadlineNanos));
        if (sleep > 0) {
            Thread.sleep(sleep);
        }
    }

    CompletableFuture<SendResult> sendAsync(OutgoingMessage out, long timeoutMillis) {
        CompletableFuture<SendResult> result = new CompletableFuture<>();
        try {
            if (!asyncSlots.tryAcquire(timeoutMillis, TimeUnit.MILLISECONDS)) {
                result.completeExceptionally(new ClientException(ResponseCode.SYSTEM_BUSY, "Too many asynchronous "
                        + "sends are in flight (maxInFlightAsyncRequests = " + producer.getMaxInFlightAsyncRequests()
                        + ") and none finished within " + timeoutMillis + " ms; slow down or raise the limit."));
                return result;
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            result.completeExceptionally(e);
            return result;
        }
        result.whenComplete((r, e) -> asyncSlots.release());
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(timeoutMillis);
        try {
            attemptAsync(out, requirePublishInfo(out.topic), null, 0, deadline, timeoutMillis, result);
        } catch (ClientException | RuntimeException e) {
            result.completeExceptionally(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            result.completeExceptionally(e);
        }
        return result;
    }

    private void attemptAsync(OutgoingMessage out, TopicPublishInfo info, String avoid, int attempt, long deadline,
                              long timeoutMillis, CompletableFuture<SendResult> result) throws InterruptedException {
        MessageQueue mq = select(info, avoid);
        long start = System.nanoTime();
        String address;
        try {
            address = instance.requireMasterAddress(mq.brokerName(), out.topic);
        } catch (ClientException e) {
            retryOrFail(out, info, mq, attempt, deadline, timeoutMillis, result, e);
            return;
        }
        if (instance.silentMasters().permit(address) == Permit.HOLD) {
            instance.refreshRouteSoon(out.topic);
            retryOrFail(out, info, mq, attempt, deadline, timeoutMillis, result, heldBack(mq, address, out.topic));
            return;
        }
        instance.messageApi().sendAsync(address, header(out, mq), out.body, attemptMillis(millisLeft(deadline)))
                .whenComplete((reply, error) -> {
                    if (error == null) {
                        instance.silentMasters().answered(address);
                        recordLatency(mq, start, false);
                        result.complete(Producer.toResult(reply, out, mq));
                        return;
                    }
                    ClientException failure = RemotingCalls.asClientException(error);
                    noteOutcome(address, failure);
                    recordLatency(mq, start, true);
                    try {
                        retryOrFail(out, info, mq, attempt, deadline, timeoutMillis, result, failure);
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                        result.completeExceptionally(e);
                    }
                });
    }

    private void retryOrFail(OutgoingMessage out, TopicPublishInfo info, MessageQueue mq, int attempt, long deadline,
                             long timeoutMillis, CompletableFuture<SendResult> result, ClientException error)
            throws InterruptedException {
        if (retriable(error) && storedNothing(error) && millisLeft(deadline) > 0) {
            // nothing was stored (a failover under way): try again shortly on the freshest route, without using a
            // retry, as the sync send does
            TopicPublishInfo next = freshest(out.topic, info);
            long pause = Math.min(PAUSE_MAX_MILLIS, Math.min(millisLeft(deadline), PAUSE_MIN_MILLIS * 4));
            CompletableFuture.delayedExecutor(Math.max(1, pause), TimeUnit.MILLISECONDS).execute(() -> {
                try {
                    attemptAsync(out, next, mq.brokerName(), attempt, deadline, timeoutMillis, result);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    result.completeExceptionally(e);
                } catch (RuntimeException e) {
                    result.completeExceptionally(e);
                }
            });
        } else if (retriable(error) && attempt < producer.getRetryTimesWhenSendAsyncFailed()
                && millisLeft(deadline) > 0) {
            attemptAsync(out, info, mq.brokerName(), attempt + 1, deadline, timeoutMillis, result);
        } else if (!retriable(error)) {
            result.completeExceptionally(error);
        } else {
            result.completeExceptionally(failedAfterRetries(out, attempt + 1, timeoutMillis, error));
        }
    }

    void sendOneway(OutgoingMessage out, long timeoutMillis) throws ClientException, InterruptedException {
        MessageQueue mq = select(requirePublishInfo(out.topic), null);
        String address = instance.requireMasterAddress(mq.brokerName(), out.topic);
        instance.messageApi().sendOneway(address, header(out, mq), out.body, timeoutMillis);
    }

    /** Sends to one queue, with the retries of {@link #sendWithRetries} on that queue's broker name. */
    SendResult sendToQueue(OutgoingMessage out, MessageQueue mq, long timeoutMillis)
            throws ClientException, InterruptedException {
        return sendWithRetries(out, null, mq, timeoutMillis);
    }

    /**
     * Sends to the given queue without waiting for the answer and without retries (a transaction's streamed half
     * message: a retry could store it twice); the future completes with the broker's answer or its failure.
     */
    CompletableFuture<SendResult> sendToQueueAsync(OutgoingMessage out, MessageQueue mq, long timeoutMillis) {
        CompletableFuture<SendResult> result = new CompletableFuture<>();
        long start = System.nanoTime();
        String address;
        try {
            address = instance.requireMasterAddress(mq.brokerName(), out.topic);
        } catch (ClientException e) {
            result.completeExceptionally(e);
            return result;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            result.completeExceptionally(e);
            return result;
        }
        instance.messageApi().sendAsync(address, header(out, mq), out.body, timeoutMillis)
                .whenComplete((reply, error) -> {
                    if (error == null) {
                        recordLatency(mq, start, false);
                        result.complete(Producer.toResult(reply, out, mq));
                        return;
                    }
                    recordLatency(mq, start, true);
                    result.completeExceptionally(RemotingCalls.asClientException(error));
                });
        return result;
    }

    private SendMessageRequest header(OutgoingMessage out, MessageQueue mq) {
        return out.header(producer.getProducerGroup(), mq.queueId(), producer.getDefaultTopicQueueNums());
    }

    /**
     * The topic's publish info. A topic without a route (not created yet) is sent to the masters of the cluster
     * with "broker chooses the queue": a broker that creates topics on first use creates it, one that does not
     * answers TOPIC_NOT_EXIST with how to create it.
     */
    TopicPublishInfo requirePublishInfo(String topic) throws ClientException, InterruptedException {
        TopicPublishInfo info = instance.publishInfo(topic);
        if (info != null) {
            return info;
        }
        List<MessageQueue> queues = new ArrayList<>();
        for (String brokerName : instance.clusterMasters().keySet()) {
            queues.add(new MessageQueue(topic, brokerName, BROKER_CHOOSES));
        }
        if (queues.isEmpty()) {
            throwIfOnlySlavesServe(topic);
            throw new ClientException(ResponseCode.TOPIC_NOT_EXIST, "No route for topic " + topic + ": is the topic "
                    + "created and a broker registered with the NameServer at " + instance.nameServer().addresses()
                    + "?");
        }
        return new TopicPublishInfo(topic, queues);
    }

    /**
     * The topic's routed publish info, without the fallback for topics not created yet: queue-pinned sends need
     * the real queues.
     */
    TopicPublishInfo requireRoutedPublishInfo(String topic) throws ClientException, InterruptedException {
        TopicPublishInfo info = instance.publishInfo(topic);
        if (info == null) {
            throwIfOnlySlavesServe(topic);
            throw new ClientException(ResponseCode.TOPIC_NOT_EXIST, "No route for topic " + topic + ": is the topic "
                    + "created and a broker registered with the NameServer at " + instance.nameServer().addresses()
                    + "? Sends to a chosen queue need the topic's queues, so create the topic first.");
        }
        return info;
    }

    /**
     * A topic whose route names broker groups but offers no queue to write is served by slaves alone (every
     * master is down): say so, rather than that the topic does not exist.
     */
    private void throwIfOnlySlavesServe(String topic) throws ClientException {
        TopicRouteData route = instance.routes().cachedRoute(topic);
        if (route == null || route.brokerDatas() == null || route.brokerDatas().isEmpty()
                || route.brokerDatas().stream().anyMatch(b -> b.brokerAddrs().containsKey(MASTER_ID))) {
            return;
        }
        List<String> groups = route.brokerDatas().stream().map(BrokerData::brokerName).sorted().toList();
        throw new ClientException(ResponseCode.SERVICE_NOT_AVAILABLE, "Topic " + topic + " is served by broker group(s) "
                + String.join(", ", groups) + ", none of which has a master registered with the NameServer at "
                + instance.nameServer().addresses() + " now; slaves take no sends. Sending resumes when a master is"
                + " back; to keep sending through a master's death, give the topic queues on another broker group.", null, true); // nothing was sent
    }

    private MessageQueue select(TopicPublishInfo info, String avoid) {
        return producer.isSendLatencyFaultEnable() ? info.select(avoid, instance.faults()) : info.select(avoid);
    }

    private void recordLatency(MessageQueue mq, long startNanos, boolean failed) {
        if (failed && mq.queueId() != BROKER_CHOOSES) {
            // the group may have lost its master: a fresh route stops sending there (a group without a master
            // publishes no queue) instead of every send paying a failed attempt until the next poll
            instance.refreshRouteSoon(mq.topic());
        }
        if (producer.isSendLatencyFaultEnable()) {
            instance.faults().update(mq.brokerName(), TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - startNanos),
                    failed);
        }
    }

    /** Failures another attempt (on another broker) may not have: no answer, busy, unavailable, unknown topic. */
    static boolean retriable(ClientException e) {
        return switch (e.responseCode()) {
            case ClientException.NO_RESPONSE, ResponseCode.SYSTEM_ERROR, ResponseCode.SYSTEM_BUSY,
                 ResponseCode.SERVICE_NOT_AVAILABLE, ResponseCode.TOPIC_NOT_EXIST, ResponseCode.NO_PERMISSION -> true;
            default -> false;
        };
    }

    private static ClientException failedAfterRetries(OutgoingMessage out, int attempts, long timeoutMillis,
                                                      ClientException last) {
        if (last == null) {
            return new ClientException("Sending to topic " + out.topic + " found no time for an attempt within "
                    + timeoutMillis + " ms; raise the send timeout.");
        }
        return new ClientException(last.responseCode(), "Sending to topic " + out.topic + " failed after " + attempts
                + " attempt(s) within " + timeoutMillis + " ms (message id " + out.uniqueIds + "): "
                + last.getMessage(), last);
    }

    private static long millisLeft(long deadlineNanos) {
        return TimeUnit.NANOSECONDS.toMillis(deadlineNanos - System.nanoTime());
    }
}
