package dev.wharf.spring.listener;

import dev.wharf.client.ClientConfig;
import dev.wharf.client.ClientException;
import dev.wharf.client.consumer.ConsumeConcurrentlyStatus;
import dev.wharf.client.consumer.ConsumeOrderlyStatus;
import dev.wharf.client.consumer.MessageListenerConcurrently;
import dev.wharf.client.consumer.MessageListenerOrderly;
import dev.wharf.client.consumer.PushConsumer;
import dev.wharf.common.message.MessageExt;
import dev.wharf.common.message.MessageQueue;
import dev.wharf.protocol.body.ConsumerModel;
import dev.wharf.spring.annotation.ConsumeMode;
import dev.wharf.spring.annotation.MessageModel;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs one {@code @MessageListener}: a push consumer of its group, created at each {@link #start()} (a consumer
 * cannot start twice) and shut down gracefully at {@link #stop()}, waiting up to the shutdown timeout for calls in
 * progress and committing the offsets. Each message is handed to the method alone (batches of one), so one failure
 * retries one message. Thread-safe.
 */
public final class ListenerContainer {

    private static final Logger log = LoggerFactory.getLogger(ListenerContainer.class);

    /** What the container is doing. */
    public enum State { CREATED, RUNNING, STOPPED, FAILED }

    private final ListenerEndpoint endpoint;
    private final ListenerInvoker invoker;
    private final Supplier<ClientConfig> clientConfig;
    private final Duration shutdownTimeout;
    private final Path offsetStoreDir;
    private final TopicCreator topics;
    private PushConsumer consumer;
    private volatile State state = State.CREATED;
    private volatile String failure;

    ListenerContainer(ListenerInvoker invoker, Supplier<ClientConfig> clientConfig, Duration shutdownTimeout,
                      Path offsetStoreDir, TopicCreator topics) {
        this.endpoint = invoker.endpoint();
        this.invoker = invoker;
        this.clientConfig = clientConfig;
        this.shutdownTimeout = shutdownTimeout;
        this.offsetStoreDir = offsetStoreDir;
        this.topics = topics;
    }

    /**
     * Joins the group and starts consuming; nothing when running already.
     *
     * @throws IllegalStateException when the consumer cannot start (e.g. this process has the group already)
     */
    public synchronized void start() {
        if (state == State.RUNNING) {
            return;
        }
        topics.ensure(endpoint.topic());
        PushConsumer c = createConsumer();
        try {
            c.start();
        } catch (ClientException | RuntimeException e) {
            c.shutdown();
            state = State.FAILED;
            failure = e.getMessage();
            throw new IllegalStateException("The @MessageListener " + endpoint.id() + " (" + endpoint.describe()
                    + ") could not start its consumer of group " + endpoint.consumerGroup() + ": " + e.getMessage(), e);
        }
        consumer = c;
        failure = null;
        state = State.RUNNING;
        log.info("@MessageListener {} consumes {} ({}) as group {}, {} {}", endpoint.id(), endpoint.topic(),
                endpoint.selector(), endpoint.consumerGroup(), endpoint.consumeMode(), endpoint.messageModel());
    }

    /** Stops consuming, waiting up to the shutdown timeout for messages in progress; nothing when not running. */
    public synchronized void stop() {
        PushConsumer c = consumer;
        consumer = null;
        if (c != null) {
            c.shutdown();
            state = State.STOPPED;
        }
    }

    public boolean isRunning() {
        return state == State.RUNNING;
    }

    public State state() {
        return state;
    }

    /** The reason of the last failed start, or null. */
    public String failure() {
        return failure;
    }

    public String id() {
        return endpoint.id();
    }

    public ListenerEndpoint endpoint() {
        return endpoint;
    }

    /** The queues this member consumes now (empty when stopped or before the first rebalance). */
    public synchronized Set<MessageQueue> assignedQueues() {
        return consumer == null ? Set.of() : consumer.assignedQueues();
    }

    /** A consumer configured from the endpoint's attributes (not started). */
    PushConsumer createConsumer() {
        PushConsumer c = new PushConsumer(endpoint.consumerGroup(), clientConfig.get());
        c.subscribe(endpoint.topic(), endpoint.selector());
        c.setMessageModel(endpoint.messageModel() == MessageModel.BROADCASTING
                ? ConsumerModel.MessageModel.BROADCASTING : ConsumerModel.MessageModel.CLUSTERING);
        c.setConsumeFromWhere(endpoint.consumeFromWhere());
        if (endpoint.consumeTimestamp() > 0) {
            c.setConsumeTimestamp(endpoint.consumeTimestamp());
        }
        c.setConsumeThreadMin(endpoint.consumeThreads());
        c.setConsumeThreadMax(endpoint.consumeThreads());
        c.setConsumeMessageBatchMaxSize(1);
        if (endpoint.maxReconsumeTimes() >= 0) {
            c.setMaxReconsumeTimes(endpoint.maxReconsumeTimes());
        }
        if (endpoint.consumeTimeoutMinutes() > 0) {
            c.setConsumeTimeout(endpoint.consumeTimeoutMinutes());
        }
        c.setAwaitTerminationMillisWhenShutdown(shutdownTimeout.toMillis());
        if (offsetStoreDir != null) {
            c.setOffsetStoreDir(offsetStoreDir);
        }
        if (endpoint.consumeMode() == ConsumeMode.ORDERLY) {
            c.registerMessageListener(orderly());
        } else {
            c.registerMessageListener(concurrently());
        }
        return c;
    }

    private MessageListenerConcurrently concurrently() {
        int delayLevel = endpoint.delayLevelWhenNextConsume();
        return (msgs, ctx) -> {
            if (consumeAll(msgs)) {
                return ConsumeConcurrentlyStatus.CONSUME_SUCCESS;
            }
            ctx.setDelayLevelWhenNextConsume(delayLevel);
            return ConsumeConcurrentlyStatus.RECONSUME_LATER;
        };
    }

    private MessageListenerOrderly orderly() {
        return (msgs, ctx) -> consumeAll(msgs) ? ConsumeOrderlyStatus.SUCCESS
                : ConsumeOrderlyStatus.SUSPEND_CURRENT_QUEUE_A_MOMENT;
    }

    private boolean consumeAll(List<MessageExt> msgs) {
        for (MessageExt msg : msgs) {
            try {
                invoker.invoke(msg);
            } catch (Exception e) {
                log.warn("@MessageListener {} failed on message {} of {} (delivery {}), it will be retried: {}",
                        endpoint.id(), msg.getMsgId(), endpoint.topic(), msg.getReconsumeTimes() + 1, e.toString());
                return false;
            }
        }
        return true;
    }

    @Override
    public String toString() {
        return "ListenerContainer{" + endpoint.id() + ", " + endpoint.topic() + ", " + endpoint.consumerGroup() + ", "
                + state + "}";
    }
}
