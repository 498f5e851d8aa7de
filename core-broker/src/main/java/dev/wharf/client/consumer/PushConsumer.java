package dev.wharf.client.consumer;

import dev.wharf.client.ClientConfig;
import dev.wharf.client.ClientException;
import dev.wharf.client.consumer.push.ConcurrentHandler;
import dev.wharf.client.consumer.push.OrderlyHandler;
import dev.wharf.client.consumer.push.PushEngine;
import dev.wharf.client.consumer.push.PushSettings;
import dev.wharf.common.SystemTopics;
import dev.wharf.common.TopicValidator;
import dev.wharf.common.message.MessageQueue;
import dev.wharf.protocol.body.ConsumerModel.ConsumeFromWhere;
import dev.wharf.protocol.body.ConsumerModel.MessageModel;
import dev.wharf.protocol.body.Heartbeat.SubscriptionData;
import java.nio.file.Path;
import java.util.Collections;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;

/**
 * A member of a consumer group that receives messages through a listener.
 *
 * <p><b>Queues.</b> In {@link MessageModel#CLUSTERING clustering} mode (default) the topic's queues are divided
 * among the group's live members ({@link AllocateMessageQueueAveragely} by default), recomputed at start, when a
 * member joins or leaves and every 20 s; each message goes to one member. In
 * {@link MessageModel#BROADCASTING broadcasting} mode every member gets every message.
 *
 * <p><b>Offsets.</b> A queue's offset is the lowest offset still being consumed (or pulled and waiting), so it
 * never passes an unconsumed message. It is kept in memory, committed to the broker every
 * {@code persistConsumerOffsetInterval} (5 s) and with pulls, when a queue moves to another member, and on
 * {@link #shutdown()}; broadcasting offsets go to a local file under {@code offsetStoreDir}. A group without a
 * committed offset starts at {@code consumeFromWhere}.
 *
 * <p><b>At-least-once.</b> A crash or a rebalance redelivers what was consumed since the last commit; a failed
 * message is retried through the broker ({@code %RETRY%group}, delayed, up to {@code maxReconsumeTimes}, then
 * {@code %DLQ%group}) or, when the broker cannot take it back, consumed again here - never dropped silently.
 *
 * <p><b>Order.</b> With a {@link MessageListenerOrderly} each queue is consumed in order by one thread at a time,
 * and in clustering mode only while this member holds the queue's lock on the broker; with a
 * {@link MessageListenerConcurrently} messages are consumed in parallel and retries come back later, out of order.
 *
 * <p>One push consumer per group per client id: to run several members of a group in one process, give each its
 * own {@link ClientConfig#setInstanceName instanceName}. Configure before {@link #start()}.
 */
public class PushConsumer {

    private final String consumerGroup;
    private final ClientConfig config;
    private final Map<String, SubscriptionData> subscriptions = new ConcurrentHashMap<>();
    private MessageListenerConcurrently concurrentListener;
    private MessageListenerOrderly orderlyListener;
    private MessageModel messageModel = MessageModel.CLUSTERING;
    private ConsumeFromWhere consumeFromWhere = ConsumeFromWhere.CONSUME_FROM_LAST_OFFSET;
    private long consumeTimestamp;
    private int consumeThreadMin = 20;
    private int consumeThreadMax = 20;
    private int pullBatchSize = 32;
    private int consumeMessageBatchMaxSize = 1;
    private int pullThresholdForQueue = 1000;
    private int pullThresholdSizeForQueue = 100;
    private int consumeConcurrentlyMaxSpan = 2000;
    private long pullInterval;
    private int maxReconsumeTimes = 16;
    private long consumeTimeout = 15;
    private long suspendCurrentQueueTimeMillis = 1000;
    private long brokerSuspendMaxTimeMillis = 15_000;
    private long consumerTimeoutMillisWhenSuspend = 20_000;
    private long pullTimeDelayMillsWhenException = 3_000;
    private long awaitTerminationMillisWhenShutdown;
    private AllocateMessageQueueStrategy allocateMessageQueueStrategy = new AllocateMessageQueueAveragely();
    private Path offsetStoreDir = Path.of(System.getProperty("user.home"), ".wharf", "offsets");
    private volatile PushEngine engine;

    public PushConsumer(String consumerGroup) {
        this(consumerGroup, new ClientConfig());
    }

    public PushConsumer(String consumerGroup, ClientConfig config) {
        this.consumerGroup = consumerGroup;
        this.config = Objects.requireNonNull(config, "config");
    }

    // ------------------------------------------------------------------ subscriptions and listeners

    /**
     * Subscribes to a topic by tag expression ({@code "*"} or null for all, {@code "a || b"}); replaces an earlier
     * subscription to the topic. Allowed before and after start.
     *
     * @throws IllegalArgumentException when the topic name or the expression is invalid
     */
    public void subscribe(String topic, String tagExpression) {
        subscribe(topic, MessageSelector.byTag(tagExpression));
    }

    /** Subscribes to a topic by tag or SQL92 selector; replaces an earlier subscription to the topic. */
    public void subscribe(String topic, MessageSelector selector) {
        String error = TopicValidator.check(topic);
        if (error != null) {
            throw new IllegalArgumentException(error);
        }
        SubscriptionData data = (selector == null ? MessageSelector.all() : selector).subscription(topic);
        subscriptions.put(topic, data);
        PushEngine current = engine;
        if (current != null) {
            current.subscribe(data);
        }
    }

    public void unsubscribe(String topic) {
        subscriptions.remove(topic);
        PushEngine current = engine;
        if (current != null) {
            current.unsubscribe(topic);
        }
    }

    @SuppressWarnings("overloads") // RocketMQ's two overloads; a lambda needs a cast or a typed variable
    public void registerMessageListener(MessageListenerConcurrently listener) {
        this.concurrentListener = Objects.requireNonNull(listener, "listener");
        this.orderlyListener = null;
    }

    @SuppressWarnings("overloads") // as above
    public void registerMessageListener(MessageListenerOrderly listener) {
        this.orderlyListener = Objects.requireNonNull(listener, "listener");
        this.concurrentListener = null;
    }

    // ------------------------------------------------------------------ lifecycle

    /**
     * Joins the group and starts pulling.
     *
     * @throws ClientException when the group name is invalid, no listener or subscription is set, the NameServer
     *                         address is missing, or this client id already has a consumer of the group
     */
    public synchronized void start() throws ClientException {
        if (engine != null) {
            throw new IllegalStateException("PushConsumer " + consumerGroup + " is already started");
        }
        String error = TopicValidator.checkGroup(consumerGroup);
        if (error == null && SystemTopics.retryTopic(consumerGroup).length() > TopicValidator.MAX_TOPIC_LENGTH) {
            error = "The group name \"" + consumerGroup + "\" is too long for its retry topic; use at most "
                    + (TopicValidator.MAX_TOPIC_LENGTH - SystemTopics.RETRY_GROUP_TOPIC_PREFIX.length() - 1)
                    + " characters.";
        }
        if (error != null) {
            throw new ClientException(error);
        }
        if (concurrentListener == null && orderlyListener == null) {
            throw new ClientException("PushConsumer " + consumerGroup + " has no message listener; call "
                    + "registerMessageListener(...) before start().");
        }
        if (subscriptions.isEmpty()) {
            throw new ClientException("PushConsumer " + consumerGroup + " subscribes to nothing; call "
                    + "subscribe(topic, \"*\") before start().");
        }
        if (consumerTimeoutMillisWhenSuspend <= brokerSuspendMaxTimeMillis) {
            throw new ClientException("consumerTimeoutMillisWhenSuspend (" + consumerTimeoutMillisWhenSuspend
                    + " ms) must exceed brokerSuspendMaxTimeMillis (" + brokerSuspendMaxTimeMillis + " ms), or held "
                    + "pulls time out on the client before the broker answers.");
        }
        boolean orderly = orderlyListener != null;
        long startTimestamp = consumeTimestamp > 0 ? consumeTimestamp : System.currentTimeMillis() - 30 * 60_000L;
        PushSettings settings = new PushSettings(consumerGroup, messageModel, consumeFromWhere, startTimestamp,
                orderly, consumeThreadMin, consumeThreadMax, pullBatchSize, consumeMessageBatchMaxSize,
                pullThresholdForQueue, pullThresholdSizeForQueue, consumeConcurrentlyMaxSpan, pullInterval,
                maxReconsumeTimes, consumeTimeout * 60_000L, suspendCurrentQueueTimeMillis,
                brokerSuspendMaxTimeMillis, consumerTimeoutMillisWhenSuspend, pullTimeDelayMillsWhenException,
                awaitTerminationMillisWhenShutdown, offsetStoreDir);
        PushEngine created = new PushEngine(settings, allocateMessageQueueStrategy::allocate,
                orderly ? null : concurrentHandler(concurrentListener), orderly ? orderlyHandler(orderlyListener) : null);
        subscriptions.values().forEach(created::subscribe);
        created.start(config);
        engine = created;
    }

    /**
     * Stops pulling, waits up to {@code awaitTerminationMillisWhenShutdown} for listeners in progress, commits the
     * offsets and leaves the group (its queues move to the other members). Messages whose consumption did not
     * finish are delivered again. Idempotent.
     */
    public synchronized void shutdown() {
        PushEngine current = engine;
        if (current != null) {
            current.shutdown();
        }
    }

    /** Stops pulling (messages already pulled are still consumed) until {@link #resume()}. */
    public void suspend() {
        PushEngine current = engine;
        if (current != null) {
            current.suspend();
        }
    }

    public void resume() {
        PushEngine current = engine;
        if (current != null) {
            current.resume();
        }
    }

    /** The queues this member owns now (empty before start). */
    public Set<MessageQueue> assignedQueues() {
        PushEngine current = engine;
        return current == null ? Set.of() : Collections.unmodifiableSet(new TreeSet<>(current.processQueues().keySet()));
    }

    private static ConcurrentHandler concurrentHandler(MessageListenerConcurrently listener) {
        return (msgs, mq) -> {
            ConsumeConcurrentlyContext ctx = new ConsumeConcurrentlyContext(mq);
            ConsumeConcurrentlyStatus status = listener.consumeMessage(Collections.unmodifiableList(msgs), ctx);
            if (status != ConsumeConcurrentlyStatus.CONSUME_SUCCESS) {
                return new ConcurrentHandler.Outcome(false, -1, ctx.getDelayLevelWhenNextConsume());
            }
            return new ConcurrentHandler.Outcome(true, ctx.getAckIndex(), ctx.getDelayLevelWhenNextConsume());
        };
    }

    private static OrderlyHandler orderlyHandler(MessageListenerOrderly listener) {
        return (msgs, mq) -> {
            ConsumeOrderlyContext ctx = new ConsumeOrderlyContext(mq);
            ConsumeOrderlyStatus status = listener.consumeMessage(Collections.unmodifiableList(msgs), ctx);
            return new OrderlyHandler.Outcome(status == ConsumeOrderlyStatus.SUCCESS,
                    ctx.getSuspendCurrentQueueTimeMillis());
        };
    }

    // ------------------------------------------------------------------ options (JavaBean)

    public String getConsumerGroup() {
        return consumerGroup;
    }

    public ClientConfig getClientConfig() {
        return config;
    }

    /** CLUSTERING (default): each message to one member; BROADCASTING: to every member. */
    public MessageModel getMessageModel() {
        return messageModel;
    }

    public void setMessageModel(MessageModel messageModel) {
        this.messageModel = Objects.requireNonNull(messageModel, "messageModel");
    }

    /** Where a group without a committed offset starts: last (default), first, or {@code consumeTimestamp}. */
    public ConsumeFromWhere getConsumeFromWhere() {
        return consumeFromWhere;
    }

    public void setConsumeFromWhere(ConsumeFromWhere consumeFromWhere) {
        this.consumeFromWhere = Objects.requireNonNull(consumeFromWhere, "consumeFromWhere");
    }

    /** Epoch ms for CONSUME_FROM_TIMESTAMP; 0 (default) = half an hour before start. */
    public long getConsumeTimestamp() {
        return consumeTimestamp;
    }

    public void setConsumeTimestamp(long consumeTimestamp) {
        this.consumeTimestamp = atLeast("consumeTimestamp", consumeTimestamp, 0);
    }

    /** Consume threads (default 20). */
    public int getConsumeThreadMin() {
        return consumeThreadMin;
    }

    public void setConsumeThreadMin(int consumeThreadMin) {
        this.consumeThreadMin = (int) atLeast("consumeThreadMin", consumeThreadMin, 1);
    }

    /** Upper bound of consume threads (default 20); the pool grows past consumeThreadMin only in bursts. */
    public int getConsumeThreadMax() {
        return consumeThreadMax;
    }

    public void setConsumeThreadMax(int consumeThreadMax) {
        this.consumeThreadMax = (int) atLeast("consumeThreadMax", consumeThreadMax, 1);
    }

    /** Messages asked for per pull (default 32). */
    public int getPullBatchSize() {
        return pullBatchSize;
    }

    public void setPullBatchSize(int pullBatchSize) {
        this.pullBatchSize = (int) atLeast("pullBatchSize", pullBatchSize, 1);
    }

    /** Messages per listener call (default 1). */
    public int getConsumeMessageBatchMaxSize() {
        return consumeMessageBatchMaxSize;
    }

    public void setConsumeMessageBatchMaxSize(int consumeMessageBatchMaxSize) {
        this.consumeMessageBatchMaxSize = (int) atLeast("consumeMessageBatchMaxSize", consumeMessageBatchMaxSize, 1);
    }

    /** A queue with more messages waiting than this pauses its pulls (default 1000). */
    public int getPullThresholdForQueue() {
        return pullThresholdForQueue;
    }

    public void setPullThresholdForQueue(int pullThresholdForQueue) {
        this.pullThresholdForQueue = (int) atLeast("pullThresholdForQueue", pullThresholdForQueue, 1);
    }

    /** A queue with more MiB of bodies waiting than this pauses its pulls (default 100). */
    public int getPullThresholdSizeForQueue() {
        return pullThresholdSizeForQueue;
    }

    public void setPullThresholdSizeForQueue(int pullThresholdSizeForQueue) {
        this.pullThresholdSizeForQueue = (int) atLeast("pullThresholdSizeForQueue", pullThresholdSizeForQueue, 1);
    }

    /** A queue whose waiting messages span more offsets than this pauses its pulls (default 2000; concurrent). */
    public int getConsumeConcurrentlyMaxSpan() {
        return consumeConcurrentlyMaxSpan;
    }

    public void setConsumeConcurrentlyMaxSpan(int consumeConcurrentlyMaxSpan) {
        this.consumeConcurrentlyMaxSpan = (int) atLeast("consumeConcurrentlyMaxSpan", consumeConcurrentlyMaxSpan, 1);
    }

    /** Pause between two pulls of a queue that found messages, in ms (default 0). */
    public long getPullInterval() {
        return pullInterval;
    }

    public void setPullInterval(long pullInterval) {
        this.pullInterval = atLeast("pullInterval", pullInterval, 0);
    }

    /** Failed deliveries before a message goes to the dead-letter queue (default 16). */
    public int getMaxReconsumeTimes() {
        return maxReconsumeTimes;
    }

    public void setMaxReconsumeTimes(int maxReconsumeTimes) {
        this.maxReconsumeTimes = (int) atLeast("maxReconsumeTimes", maxReconsumeTimes, 0);
    }

    /** Minutes a message may be in consumption before it is sent back for retry (default 15; concurrent). */
    public long getConsumeTimeout() {
        return consumeTimeout;
    }

    public void setConsumeTimeout(long consumeTimeout) {
        this.consumeTimeout = atLeast("consumeTimeout", consumeTimeout, 1);
    }

    /** How long an orderly queue pauses after a failed batch, in ms (default 1000). */
    public long getSuspendCurrentQueueTimeMillis() {
        return suspendCurrentQueueTimeMillis;
    }

    public void setSuspendCurrentQueueTimeMillis(long suspendCurrentQueueTimeMillis) {
        this.suspendCurrentQueueTimeMillis = atLeast("suspendCurrentQueueTimeMillis", suspendCurrentQueueTimeMillis, 0);
    }

    /** How long the broker holds a pull that finds nothing (long polling), in ms (default 15000). */
    public long getBrokerSuspendMaxTimeMillis() {
        return brokerSuspendMaxTimeMillis;
    }

    public void setBrokerSuspendMaxTimeMillis(long brokerSuspendMaxTimeMillis) {
        this.brokerSuspendMaxTimeMillis = atLeast("brokerSuspendMaxTimeMillis", brokerSuspendMaxTimeMillis, 1);
    }

    /** Client-side timeout of a held pull; must exceed brokerSuspendMaxTimeMillis (default 20000). */
    public long getConsumerTimeoutMillisWhenSuspend() {
        return consumerTimeoutMillisWhenSuspend;
    }

    public void setConsumerTimeoutMillisWhenSuspend(long consumerTimeoutMillisWhenSuspend) {
        this.consumerTimeoutMillisWhenSuspend = atLeast("consumerTimeoutMillisWhenSuspend",
                consumerTimeoutMillisWhenSuspend, 1);
    }

    /** Pause before pulling a queue again after a failed pull, in ms (default 3000). */
    public long getPullTimeDelayMillsWhenException() {
        return pullTimeDelayMillsWhenException;
    }

    public void setPullTimeDelayMillsWhenException(long pullTimeDelayMillsWhenException) {
        this.pullTimeDelayMillsWhenException = atLeast("pullTimeDelayMillsWhenException",
                pullTimeDelayMillsWhenException, 1);
    }

    /** How long {@link #shutdown()} waits for listeners in progress, in ms (default 0: interrupt them). */
    public long getAwaitTerminationMillisWhenShutdown() {
        return awaitTerminationMillisWhenShutdown;
    }

    public void setAwaitTerminationMillisWhenShutdown(long awaitTerminationMillisWhenShutdown) {
        this.awaitTerminationMillisWhenShutdown = atLeast("awaitTerminationMillisWhenShutdown",
                awaitTerminationMillisWhenShutdown, 0);
    }

    public AllocateMessageQueueStrategy getAllocateMessageQueueStrategy() {
        return allocateMessageQueueStrategy;
    }

    public void setAllocateMessageQueueStrategy(AllocateMessageQueueStrategy allocateMessageQueueStrategy) {
        this.allocateMessageQueueStrategy = Objects.requireNonNull(allocateMessageQueueStrategy,
                "allocateMessageQueueStrategy");
    }

    /**
     * Where broadcasting consumers keep their offsets (default {@code ${user.home}/.wharf/offsets}), in
     * {@code <dir>/<clientId>/<group>/offsets.json}. The client id contains the process id unless the
     * {@link ClientConfig#setInstanceName instanceName} is set, so give broadcasting consumers a stable instance
     * name for their offsets to survive a restart.
     */
    public Path getOffsetStoreDir() {
        return offsetStoreDir;
    }

    public void setOffsetStoreDir(Path offsetStoreDir) {
        this.offsetStoreDir = Objects.requireNonNull(offsetStoreDir, "offsetStoreDir");
    }

    private static long atLeast(String name, long value, long min) {
        if (value < min) {
            throw new IllegalArgumentException(name + " must be at least " + min + ", got " + value);
        }
        return value;
    }

    @Override
    public String toString() {
        return "PushConsumer{" + consumerGroup + ", " + messageModel + ", " + config + "}";
    }
}
