package dev.wharf.client.ack;

import dev.wharf.client.ClientConfig;
import dev.wharf.client.ClientException;
import dev.wharf.client.consumer.MessageSelector;
import dev.wharf.client.impl.AckApi;
import dev.wharf.client.impl.ClientInstance;
import dev.wharf.client.impl.RemotingCalls;
import dev.wharf.common.TopicValidator;
import dev.wharf.common.message.MessageExt;
import dev.wharf.common.message.MessageQueue;
import dev.wharf.protocol.ResponseCode;
import dev.wharf.protocol.body.AckStats;
import dev.wharf.protocol.body.ConsumerModel.ExpressionType;
import dev.wharf.protocol.header.AckHeaders;
import dev.wharf.protocol.header.AckHeaders.AckMessageRequest;
import dev.wharf.protocol.header.AckHeaders.ChangeInvisibleTimeRequest;
import dev.wharf.protocol.header.AckHeaders.InitMode;
import dev.wharf.protocol.header.AckHeaders.PeekMessageRequest;
import dev.wharf.protocol.header.AckHeaders.PopMessageRequest;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A consumer whose messages are acknowledged one by one and tracked by the broker ("pop" consumption), for queue
 * semantics: each message goes to one consumer of the group; consumers of one group may use different selectors;
 * a message no consumer's selector matches stays on the queue; acknowledgements may come in any order. Every
 * member of the group can take messages from every queue, so any number of consumers share any number of queues.
 * Several AckConsumers of one group may run in one process (they do not register as group members).
 *
 * <h2>Leases</h2>
 * {@link #pop} hands out messages with a lease of {@code invisibleTimeMillis}. Until the lease ends no other pop
 * of the group gets the message. Before it ends the holder either acknowledges the message ({@link #ack}: it is
 * done for good), or gives it back ({@link #changeInvisibleTime} with 0: available again now; with more: available
 * again after that delay, e.g. a redelivery delay), or extends the lease (the same call while it still processes).
 * A lease that ends unacknowledged, or whose connection closes (the process died), makes the message available
 * again at once. Messages are identified by broker name, topic, queue id and queue offset, all carried by the
 * {@link PoppedMessage}; an acknowledgement of a message that is done already is ignored, so retries are safe.
 *
 * <h2>Delivery counts</h2>
 * {@link PoppedMessage#deliveryCount()} is 1 on the first delivery and one higher on each later one: after an
 * expired lease, a closed connection, a broker restart with the lease open, or a give-back with
 * {@code countDelivery = true} (rollback, recover, a failed listener). A give-back with {@code countDelivery = false}
 * (prefetched messages released unseen on close) does not count. A message delivered
 * {@code maxReconsumeTimes + 1} times ({@link #setMaxReconsumeTimes}, default: the group's retryMaxTimes on the
 * broker, 16) is moved to the queue {@code %DLQ%{group}} instead of being delivered again; that queue is consumed
 * and browsed with an AckConsumer like any other (its group is usually named like the queue).
 *
 * <h2>Ordering</h2>
 * Within one queue of one broker a pop returns messages in queue order, and redeliveries of that queue come before
 * its newer messages. Across queues, brokers, and consumers popping concurrently there is no order; a producer that
 * needs its messages in order to one consumer sends them to one queue and the consumer pops that queue.
 *
 * <h2>What survives a broker restart</h2>
 * Acknowledgements (answered only once they are in the broker's ack log; with SYNC_FLUSH, on disk), delivery
 * counts, dead-lettering and the group's state are persisted. Leases are not: a message leased when the broker
 * stopped is available after the restart, its delivery count one higher. A message an acknowledgement or give-back
 * never reached (the broker was down) keeps its lease until it ends.
 *
 * <h2>Where a group starts</h2>
 * A group without state on a topic gets it on its first pop (or {@link #createGroup}): at the first stored message
 * ({@link InitMode#EARLIEST}: queues, shared subscriptions) or at the end ({@link InitMode#LATEST}: new
 * subscriptions; call {@link #createGroup} when the subscription is made, so messages sent before the first pop are
 * not missed). {@link #deleteGroup} forgets it (unsubscribe).
 *
 * <p>Thread-safe after {@link #start()}; {@link #shutdown()} answers pops in progress with no message.
 */
public class AckConsumer {

    private static final Logger log = LoggerFactory.getLogger(AckConsumer.class);
    /** Most messages one pop returns. */
    public static final int MAX_POP_NUMS = AckHeaders.MAX_POP_NUMS;
    /** Longest lease or redelivery delay: one day. */
    public static final long MAX_INVISIBLE_TIME = 86_400_000L;
    /** Longest a pop waits: five minutes. */
    public static final long MAX_POLL_TIME = 300_000L;
    /** Longest wait of a pop that only slaves (of groups without a master) could serve and that found nothing. */
    private static final long SLAVE_POLL_MILLIS = 200;
    /** Longest wait of a pop on the masters while another group of the topic is read from its slave. */
    private static final long MASTERLESS_POLL_MILLIS = 1_000;
    /** Requests one {@link #peek} makes at most before it returns a (possibly empty) page. */
    private static final int PEEK_REQUESTS_PER_PAGE = 64;
    /** How long a message the client's re-check rejected stays away, so it is not popped again at once. */
    private static final long REJECTED_HOLD_MILLIS = 1_000;

    private final String group;
    private final ClientConfig config;
    private final AtomicInteger rotation = new AtomicInteger();
    private final Set<CompletableFuture<PopResult>> pending = ConcurrentHashMap.newKeySet();
    /** Reads of groups whose master is down, from their slaves. */
    private final SlaveReads slaveReads;
    private volatile ClientInstance instance;
    private volatile Integer maxReconsumeTimes;

    /** A consumer of {@code group} (it names the broker-side state; JMS queues use the queue's name). */
    public AckConsumer(String group, ClientConfig config) {
        this.group = group;
        this.slaveReads = new SlaveReads(group);
        this.config = Objects.requireNonNull(config, "config").copy();
    }

    public String group() {
        return group;
    }

    /** Acknowledgements of messages read from a slave that wait for their master to return. */
    public int pendingSlaveAcks() {
        return slaveReads.pendingAcks();
    }

    /**
     * Deliveries beyond the first before a message goes to the dead-letter queue, sent with every pop; null (the
     * default) = the group's retryMaxTimes on the broker.
     */
    public void setMaxReconsumeTimes(Integer maxReconsumeTimes) {
        if (maxReconsumeTimes != null && (maxReconsumeTimes < 0 || maxReconsumeTimes > 10_000)) {
            throw new IllegalArgumentException("maxReconsumeTimes is " + maxReconsumeTimes + "; use 0 to 10000, or null"
                    + " for the group's setting on the broker.");
        }
        this.maxReconsumeTimes = maxReconsumeTimes;
    }

    /**
     * Connects (through the shared client instance of the configuration).
     *
     * @throws ClientException the group name is invalid or the NameServer address is missing or malformed
     */
    public synchronized void start() throws ClientException {
        if (instance != null) {
            throw new IllegalStateException("AckConsumer " + group + " is already started");
        }
        String error = TopicValidator.checkGroup(group);
        if (error != null) {
            throw new ClientException(error);
        }
        instance = ClientInstance.acquire(config);
    }

    /**
     * Answers pops in progress with no message (messages they receive later are given back uncounted) and gives
     * the client instance back. Leases of messages popped and not acknowledged stay until they end, or until the
     * connection closes when this was the instance's last user; give prefetched messages back first.
     */
    public synchronized void shutdown() {
        ClientInstance current = instance;
        if (current == null) {
            return;
        }
        for (CompletableFuture<PopResult> pop : List.copyOf(pending)) {
            pop.complete(PopResult.NONE);
        }
        instance = null;
        current.release();
    }

    private ClientInstance started() {
        ClientInstance current = instance;
        if (current == null) {
            throw new IllegalStateException("AckConsumer " + group + " is not started; call start() first");
        }
        return current;
    }

    // ------------------------------------------------------------------ pop

    /**
     * Leases up to {@code maxNums} available messages of the topic that match the selector, waiting up to
     * {@code pollTimeMillis} for one.
     *
     * @param queueIdOrMinus1 -1: any queue of any broker serving the topic; n: queue n of each such broker
     * @param invisibleTimeMillis the lease (1 ms to one day)
     * @param pollTimeMillis  how long to wait when nothing is available (0 = answer at once; at most 5 minutes)
     * @param selector        null or {@link MessageSelector#all()} for every message
     * @param initMode        where the group starts on the topic if it has no state yet (null = EARLIEST)
     * @param skipUnmatched   false (queues): a message the selector does not match stays for other consumers;
     *                        true (topic subscriptions): the broker acknowledges it for this group at once
     * @throws ClientException no route for the topic ({@code TOPIC_NOT_EXIST}), a broker refused (bad selector,
     *                         consumption disabled), or no broker answered
     * @throws IllegalArgumentException an argument is out of range (the message says which)
     */
    public PopResult pop(String topic, int queueIdOrMinus1, int maxNums, long invisibleTimeMillis, long pollTimeMillis,
                         MessageSelector selector, InitMode initMode, boolean skipUnmatched)
            throws ClientException, InterruptedException {
        CompletableFuture<PopResult> pop = popAsync(topic, queueIdOrMinus1, maxNums, invisibleTimeMillis,
                pollTimeMillis, selector, initMode, skipUnmatched);
        try {
            return pop.get();
        } catch (InterruptedException e) {
            ClientInstance current = instance;
            if (!pop.complete(PopResult.NONE) && current != null) {
                giveBack(current, pop.getNow(PopResult.NONE).messages());
            }
            throw e;
        } catch (ExecutionException e) {
            throw RemotingCalls.asClientException(e.getCause());
        }
    }

    /**
     * Like {@link #pop}, without blocking: the future completes with the messages, with none, or exceptionally with
     * a {@link ClientException}. Completing or cancelling it early gives back (uncounted) whatever arrives later.
     *
     * @throws IllegalArgumentException an argument is out of range
     */
    public CompletableFuture<PopResult> popAsync(String topic, int queueIdOrMinus1, int maxNums,
                                                 long invisibleTimeMillis, long pollTimeMillis,
                                                 MessageSelector selector, InitMode initMode, boolean skipUnmatched) {
        checkPop(topic, queueIdOrMinus1, maxNums, invisibleTimeMillis, pollTimeMillis);
        ClientInstance current = started();
        MessageSelector sel = selector == null ? MessageSelector.all() : selector;
        InitMode mode = initMode == null ? InitMode.EARLIEST : initMode;
        List<PopAttempt.Target> targets;
        try {
            slaveReads.handBack(current);
            Set<MessageQueue> queues = queues(current, topic);
            Set<String> masterless = SlaveReads.masterless(current, queues);
            if (!masterless.isEmpty()) {
                List<PoppedMessage> read = slaveReads.read(current, topic, queues, masterless, queueIdOrMinus1,
                        maxNums, sel, mode, invisibleTimeMillis, msg -> tagMatches(sel, msg));
                if (!read.isEmpty()) {
                    return CompletableFuture.completedFuture(new PopResult(PopStatus.FOUND, read));
                }
            }
            targets = targets(current, topic, queueIdOrMinus1, queues, masterless);
            if (targets.isEmpty()) {
                // only groups without a master serve the topic and their slaves had nothing: answer after a short
                // wait, so that a receive loop does not spin on the slaves
                return CompletableFuture.supplyAsync(() -> PopResult.NONE, CompletableFuture.delayedExecutor(
                        Math.min(pollTimeMillis, SLAVE_POLL_MILLIS), TimeUnit.MILLISECONDS));
            }
        } catch (ClientException e) {
            return CompletableFuture.failedFuture(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return CompletableFuture.failedFuture(e);
        }
        Integer maxReconsume = maxReconsumeTimes;
        // while slaves are read, wait on the masters only briefly: the slaves are looked at again, and a master that
        // returns is popped from, at the next pop
        long pollTime = SlaveReads.masterless(current, current.subscribeQueues(topic)).isEmpty() ? pollTimeMillis
                : Math.min(pollTimeMillis, MASTERLESS_POLL_MILLIS);
        CompletableFuture<PopResult> result = new CompletableFuture<>();
        pending.add(result);
        result.whenComplete((r, e) -> {
            pending.remove(result);
            if (e != null) {
                current.refreshRouteSoon(topic); // a broker may have died: the route shows whether its group has a master
            }
        });
        new PopAttempt(current.ackApi(), targets,
                poll -> new PopMessageRequest(group, topic, queueIdOrMinus1, maxNums, invisibleTimeMillis, poll,
                        sel.type().name(), sel.expression(), mode, skipUnmatched, maxReconsume),
                pollTime, current.apiTimeoutMillis(), msg -> tagMatches(sel, msg),
                late -> giveBack(current, late), rejected -> finishRejected(current, rejected, skipUnmatched),
                result).run();
        return result;
    }

    private static void checkPop(String topic, int queueId, int maxNums, long invisibleTime, long pollTime) {
        String error = TopicValidator.check(topic);
        if (error != null) {
            throw new IllegalArgumentException(error);
        }
        if (queueId < -1) {
            throw new IllegalArgumentException("queueId is " + queueId + "; use -1 for any queue or a queue id >= 0.");
        }
        if (maxNums < 1 || maxNums > MAX_POP_NUMS) {
            throw new IllegalArgumentException("maxNums is " + maxNums + "; pop 1 to " + MAX_POP_NUMS + " messages.");
        }
        if (invisibleTime < 1 || invisibleTime > MAX_INVISIBLE_TIME) {
            throw new IllegalArgumentException("invisibleTimeMillis is " + invisibleTime + "; use 1 to "
                    + MAX_INVISIBLE_TIME + " ms.");
        }
        if (pollTime < 0 || pollTime > MAX_POLL_TIME) {
            throw new IllegalArgumentException("pollTimeMillis is " + pollTime + "; use 0 to " + MAX_POLL_TIME
                    + " ms.");
        }
    }

    /**
     * The brokers serving the topic (those with queue {@code queueId} when it is not -1), from a rotating start,
     * without the groups that have no master (read from their slaves instead).
     */
    private List<PopAttempt.Target> targets(ClientInstance current, String topic, int queueId,
                                            Set<MessageQueue> queues, Set<String> masterless)
            throws ClientException, InterruptedException {
        Set<String> brokers = new TreeSet<>();
        for (MessageQueue mq : queues) {
            if (queueId < 0 || mq.queueId() == queueId) {
                brokers.add(mq.brokerName());
            }
        }
        if (brokers.isEmpty()) {
            throw new ClientException(ResponseCode.REQUEST_HEADER_INVALID, "No broker serves queue " + queueId
                    + " of topic " + topic + "; pop queue -1 (any) or a queue id the topic has.");
        }
        brokers.removeAll(masterless);
        List<String> names = new ArrayList<>(brokers);
        if (names.isEmpty()) {
            return List.of();
        }
        int start = Math.floorMod(rotation.getAndIncrement(), names.size());
        List<PopAttempt.Target> out = new ArrayList<>(names.size());
        for (int i = 0; i < names.size(); i++) {
            String name = names.get((start + i) % names.size());
            out.add(new PopAttempt.Target(name, current.requireMasterAddress(name, topic)));
        }
        return out;
    }

    private Set<MessageQueue> queues(ClientInstance current, String topic)
            throws ClientException, InterruptedException {
        Set<MessageQueue> queues = current.subscribeQueues(topic);
        if (queues.isEmpty()) {
            queues = current.fetchSubscribeQueues(topic);
        }
        if (queues.isEmpty()) {
            throw new ClientException(ResponseCode.TOPIC_NOT_EXIST, "No route for topic " + topic + ": is the topic"
                    + " created and a broker registered with the NameServer at " + config.getNamesrvAddr() + "?");
        }
        return queues;
    }

    /** The broker filters tags by hash; a different tag with the same hash is caught here. */
    private static boolean tagMatches(MessageSelector selector, MessageExt msg) {
        if (selector.type() != ExpressionType.TAG || "*".equals(selector.expression())) {
            return true;
        }
        String tag = msg.getTags();
        if (tag == null) {
            return false;
        }
        for (String wanted : selector.expression().split("\\|\\|")) {
            if (wanted.trim().equals(tag)) {
                return true;
            }
        }
        return false;
    }

    private void finishRejected(ClientInstance current, List<PoppedMessage> rejected, boolean skipUnmatched) {
        CompletableFuture<Void> done = skipUnmatched ? ackVia(current, rejected)
                : changeVia(current, rejected, REJECTED_HOLD_MILLIS, false);
        done.whenComplete((v, e) -> {
            if (e != null) {
                log.warn("Could not finish {} message(s) the selector of group {} does not match: {}", rejected.size(),
                        group, e.getMessage());
            }
        });
    }

    /** Releases messages this consumer will not hand out (uncounted); through the instance that popped them. */
    private void giveBack(ClientInstance current, List<PoppedMessage> messages) {
        if (messages.isEmpty()) {
            return;
        }
        changeVia(current, messages, 0, false).whenComplete((v, e) -> {
            if (e != null) {
                log.warn("Could not give back {} message(s) of group {}: {}; they return when their lease ends",
                        messages.size(), group, e.getMessage());
            }
        });
    }

    // ------------------------------------------------------------------ ack and lease changes

    /** Acknowledges one message: it is done for the group. Idempotent. */
    public void ack(MessageExt msg) throws ClientException, InterruptedException {
        ack(List.of(msg));
    }

    /**
     * Acknowledges messages (one request per broker and queue). Returns once every broker confirmed it stored the
     * acknowledgement. Idempotent.
     *
     * @throws IllegalArgumentException a message was not handed out by a pop (it has no broker name)
     */
    public void ack(Collection<? extends MessageExt> msgs) throws ClientException, InterruptedException {
        await(ackAsync(msgs));
    }

    /** Like {@link #ack(Collection)}; the future fails with a {@link ClientException}. */
    public CompletableFuture<Void> ackAsync(Collection<? extends MessageExt> msgs) {
        return ackVia(started(), msgs);
    }

    private CompletableFuture<Void> ackVia(ClientInstance current, Collection<? extends MessageExt> msgs) {
        List<MessageExt> toBrokers = slaveReads.ack(msgs);
        if (toBrokers.isEmpty()) {
            return CompletableFuture.completedFuture(null);
        }
        return QueueRequests.send(current, toBrokers, (address, key, offsets, batch) -> current.ackApi().ackAsync(address,
                new AckMessageRequest(group, key.topic(), key.queueId(), offsets), current.apiTimeoutMillis()));
    }

    /**
     * Changes the leases of messages: 0 makes them available again now, more keeps them away that long from now
     * (redelivery delay), and while still processing extends the lease. A message leased again since it was
     * handed out here (its lease ended and another consumer took it) is left alone.
     *
     * @param countDelivery true when the delivery happened (rollback, recover, a failed listener: the next
     *                      delivery count is one higher); false when it did not (prefetched, never shown)
     */
    public void changeInvisibleTime(Collection<? extends MessageExt> msgs, long invisibleTimeMillis,
                                    boolean countDelivery) throws ClientException, InterruptedException {
        await(changeInvisibleTimeAsync(msgs, invisibleTimeMillis, countDelivery));
    }

    /** Like {@link #changeInvisibleTime}; the future fails with a {@link ClientException}. */
    public CompletableFuture<Void> changeInvisibleTimeAsync(Collection<? extends MessageExt> msgs,
                                                            long invisibleTimeMillis, boolean countDelivery) {
        if (invisibleTimeMillis < 0 || invisibleTimeMillis > MAX_INVISIBLE_TIME) {
            throw new IllegalArgumentException("invisibleTimeMillis is " + invisibleTimeMillis + "; use 0 to "
                    + MAX_INVISIBLE_TIME + " ms.");
        }
        return changeVia(started(), msgs, invisibleTimeMillis, countDelivery);
    }

    private CompletableFuture<Void> changeVia(ClientInstance current, Collection<? extends MessageExt> msgs,
                                              long invisibleTimeMillis, boolean countDelivery) {
        List<MessageExt> toBrokers = slaveReads.changeInvisibleTime(msgs, invisibleTimeMillis);
        if (toBrokers.isEmpty()) {
            return CompletableFuture.completedFuture(null);
        }
        return QueueRequests.send(current, toBrokers, (address, key, offsets, batch) -> current.ackApi()
                .changeInvisibleTimeAsync(address, new ChangeInvisibleTimeRequest(group, key.topic(), key.queueId(),
                        offsets, QueueRequests.deliveryCounts(batch), invisibleTimeMillis, countDelivery),
                        current.apiTimeoutMillis()));
    }

    private static void await(CompletableFuture<Void> future) throws ClientException, InterruptedException {
        try {
            future.get();
        } catch (ExecutionException e) {
            throw RemotingCalls.asClientException(e.getCause());
        }
    }

    // ------------------------------------------------------------------ browse

    /**
     * Browses the topic for this group without changing anything: the messages still there (not acknowledged;
     * leased ones included; expired ones not), matching the selector, in queue order within each queue, queue after
     * queue across every broker serving the topic. A page holds up to {@code maxNums} messages; it may be short (or
     * empty) before the end, so continue with {@link PeekResult#next()} until it {@linkplain PeekCursor#isEnd() ends}.
     *
     * @param from null to start a browse, else the cursor of the previous page
     */
    public PeekResult peek(String topic, MessageSelector selector, PeekCursor from, int maxNums)
            throws ClientException, InterruptedException {
        if (maxNums < 1 || maxNums > MAX_POP_NUMS) {
            throw new IllegalArgumentException("maxNums is " + maxNums + "; peek 1 to " + MAX_POP_NUMS + " messages.");
        }
        ClientInstance current = started();
        MessageSelector sel = selector == null ? MessageSelector.all() : selector;
        PeekCursor cursor = from != null ? from : startBrowse(current, topic);
        List<PeekedMessage> out = new ArrayList<>();
        int index = cursor.index();
        long offset = cursor.offset();
        for (int requests = 0; index < cursor.queues().size() && out.size() < maxNums
                && requests < PEEK_REQUESTS_PER_PAGE; requests++) {
            MessageQueue mq = cursor.queues().get(index);
            AckApi.Reply reply = current.ackApi().peek(current.requireMasterAddress(mq.brokerName(), topic),
                    mq.brokerName(), new PeekMessageRequest(group, topic, mq.queueId(), offset, maxNums - out.size(),
                            sel.type().name(), sel.expression()), current.apiTimeoutMillis());
            for (int i = 0; i < reply.messages().size(); i++) {
                if (tagMatches(sel, reply.messages().get(i))) {
                    out.add(new PeekedMessage(reply.messages().get(i), reply.deliveryCounts()[i]));
                }
            }
            if (reply.nextOffset() >= reply.maxOffset() || reply.nextOffset() <= offset && reply.messages().isEmpty()) {
                index++;
                offset = 0;
            } else {
                offset = reply.nextOffset();
            }
        }
        return new PeekResult(out, new PeekCursor(cursor.queues(), index, offset));
    }

    private PeekCursor startBrowse(ClientInstance current, String topic) throws ClientException, InterruptedException {
        String error = TopicValidator.check(topic);
        if (error != null) {
            throw new IllegalArgumentException(error);
        }
        List<MessageQueue> queues = new ArrayList<>(queues(current, topic));
        queues.sort(Comparator.comparing(MessageQueue::brokerName).thenComparingInt(MessageQueue::queueId));
        return new PeekCursor(queues, 0, 0);
    }

    // ------------------------------------------------------------------ group state

    /**
     * Creates the group's state on every broker serving the topic where it has none, starting at
     * {@code initMode}. Call it when a subscription is made, so that {@link InitMode#LATEST} means "from now".
     */
    public void createGroup(String topic, InitMode initMode) throws ClientException, InterruptedException {
        ClientInstance current = started();
        for (String broker : brokers(current, topic)) {
            current.ackApi().createGroup(current.requireMasterAddress(broker, topic), group, topic,
                    initMode == null ? InitMode.EARLIEST : initMode, current.apiTimeoutMillis());
        }
    }

    /**
     * Deletes the group's state for the topic on every broker serving it (unsubscribe): what it had not
     * acknowledged is forgotten for this group.
     */
    public void deleteGroup(String topic) throws ClientException, InterruptedException {
        ClientInstance current = started();
        for (String broker : brokers(current, topic)) {
            current.ackApi().deleteGroup(current.requireMasterAddress(broker, topic), group, topic,
                    current.apiTimeoutMillis());
        }
    }

    /** The group's per-queue state on the topic, per broker name. */
    public Map<String, AckStats> stats(String topic) throws ClientException, InterruptedException {
        ClientInstance current = started();
        Map<String, AckStats> out = new TreeMap<>();
        for (String broker : brokers(current, topic)) {
            out.put(broker, current.ackApi().stats(current.requireMasterAddress(broker, topic), group, topic,
                    current.apiTimeoutMillis()));
        }
        return out;
    }

    private Set<String> brokers(ClientInstance current, String topic) throws ClientException, InterruptedException {
        String error = TopicValidator.check(topic);
        if (error != null) {
            throw new IllegalArgumentException(error);
        }
        Set<String> brokers = new TreeSet<>();
        for (MessageQueue mq : current.fetchSubscribeQueues(topic)) {
            brokers.add(mq.brokerName());
        }
        if (brokers.isEmpty()) {
            throw new ClientException(ResponseCode.TOPIC_NOT_EXIST, "No route for topic " + topic + ": is the topic"
                    + " created and a broker registered with the NameServer at " + config.getNamesrvAddr() + "?");
        }
        return brokers;
    }
}
