package dev.wharf.client.consumer.push;

import dev.wharf.client.ClientConfig;
import dev.wharf.client.ClientException;
import dev.wharf.client.consumer.offset.LocalFileOffsetStore;
import dev.wharf.client.consumer.offset.OffsetStore;
import dev.wharf.client.consumer.offset.RemoteOffsetStore;
import dev.wharf.client.impl.ClientInstance;
import dev.wharf.client.impl.ConsumerMember;
import dev.wharf.common.SystemTopics;
import dev.wharf.common.message.HostAddress;
import dev.wharf.common.message.MessageExt;
import dev.wharf.common.message.MessageProperties;
import dev.wharf.common.message.MessageQueue;
import dev.wharf.protocol.body.ConsumerModel.ConsumeType;
import dev.wharf.protocol.body.Heartbeat.ConsumerData;
import dev.wharf.protocol.body.Heartbeat.SubscriptionData;
import dev.wharf.protocol.header.MessageHeaders.ConsumerSendMsgBackRequest;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The running push consumer: its subscriptions, its owned queues and their process queues, and the services
 * that fill and drain them. Registered with the client instance as a group member. Created and driven by
 * {@code dev.wharf.client.consumer.PushConsumer}.
 */
public final class PushEngine implements ConsumerMember {

    private static final Logger log = LoggerFactory.getLogger(PushEngine.class);

    private final PushSettings settings;
    private final QueueAllocator allocator;
    private final Map<String, SubscriptionData> subscriptions = new ConcurrentHashMap<>();
    private final Map<MessageQueue, ProcessQueue> processQueues = new ConcurrentHashMap<>();
    private final Set<String> resetTopics = ConcurrentHashMap.newKeySet();
    private final ConcurrentHandler concurrentHandler;
    private final OrderlyHandler orderlyHandler;
    private volatile ClientInstance instance;
    private volatile OffsetStore offsetStore;
    private volatile ConsumeService consumeService;
    private volatile PullService pullService;
    private volatile Rebalancer rebalancer;
    private volatile boolean paused;
    private volatile boolean stopped;

    /** Exactly one of the handlers is non-null; {@code settings.orderly()} says which. */
    public PushEngine(PushSettings settings, QueueAllocator allocator, ConcurrentHandler concurrentHandler,
                      OrderlyHandler orderlyHandler) {
        this.settings = settings;
        this.allocator = Objects.requireNonNull(allocator, "allocator");
        this.concurrentHandler = concurrentHandler;
        this.orderlyHandler = orderlyHandler;
        if (settings.orderly() ? orderlyHandler == null : concurrentHandler == null) {
            throw new IllegalArgumentException("the handler does not match the consume mode");
        }
    }

    /** Adds or replaces a subscription; takes effect at the next heartbeat and rebalance. */
    public void subscribe(SubscriptionData subscription) {
        subscriptions.put(subscription.topic(), subscription);
        ClientInstance current = instance;
        if (current != null) {
            refreshRoute(current, subscription.topic());
            current.sendHeartbeatToAllBrokers();
            current.rebalanceSoon();
        }
    }

    public void unsubscribe(String topic) {
        subscriptions.remove(topic);
        ClientInstance current = instance;
        if (current != null) {
            current.sendHeartbeatToAllBrokers();
            current.rebalanceSoon();
        }
    }

    /**
     * Joins the client instance and the group: loads offsets, starts the services, sends a heartbeat and asks
     * for a rebalance.
     */
    public synchronized void start(ClientConfig config) throws ClientException {
        if (settings.clustering()) {
            String retry = SystemTopics.retryTopic(settings.group());
            subscriptions.putIfAbsent(retry, dev.wharf.client.impl.Subscriptions.byTag(retry, "*"));
        }
        ClientInstance acquired = ClientInstance.acquire(config);
        try {
            OffsetStore store = settings.clustering() ? new RemoteOffsetStore(acquired, settings.group())
                    : new LocalFileOffsetStore(settings.offsetStoreDir().resolve(safe(acquired.clientId()))
                    .resolve(settings.group()));
            store.load();
            offsetStore = store;
            acquired.registerConsumer(this);
        } catch (ClientException | RuntimeException e) {
            acquired.release();
            throw e;
        }
        instance = acquired;
        consumeService = settings.orderly() ? new OrderlyConsumeService(this, orderlyHandler)
                : new ConcurrentConsumeService(this, concurrentHandler);
        pullService = new PullService(this);
        rebalancer = new Rebalancer(this);
        consumeService.start();
        pullService.start();
        for (String topic : subscriptions.keySet()) {
            refreshRoute(acquired, topic);
        }
        acquired.sendHeartbeatToAllBrokers();
        acquired.rebalanceSoon();
    }

    private void refreshRoute(ClientInstance current, String topic) {
        try {
            if (!current.updateRoute(topic) && !SystemTopics.isRetryTopic(topic)) {
                log.warn("Group {}: topic {} has no route yet; the consumer will pick it up when a broker serves it",
                        settings.group(), topic);
            }
        } catch (ClientException e) {
            log.warn("Group {}: cannot fetch the route of topic {}: {}", settings.group(), topic, e.getMessage());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /**
     * Stops pulling, lets consumption in progress finish (up to {@code awaitTerminationMillisWhenShutdown}),
     * commits the offsets, releases orderly locks, leaves the group and gives the instance back.
     */
    public synchronized void shutdown() {
        ClientInstance current = instance;
        if (current == null || stopped) {
            stopped = true;
            return;
        }
        stopped = true;
        pullService.shutdown();
        consumeService.shutdown(settings.awaitTerminationMillisWhenShutdown());
        offsetStore.persistAll(Set.copyOf(processQueues.keySet()));
        for (ProcessQueue pq : processQueues.values()) {
            pq.setDropped(true);
        }
        consumeService.releaseAll(Set.copyOf(processQueues.keySet()));
        processQueues.clear();
        current.unregisterConsumer(settings.group());
        current.release();
        instance = null;
    }

    public void suspend() {
        paused = true;
    }

    public void resume() {
        paused = false;
        ClientInstance current = instance;
        if (current != null) {
            current.rebalanceSoon();
        }
    }

    // ------------------------------------------------------------------ ConsumerMember

    @Override
    public String groupName() {
        return settings.group();
    }

    @Override
    public ConsumerData heartbeatData() {
        return new ConsumerData(settings.group(), ConsumeType.CONSUME_PASSIVELY, settings.messageModel(),
                settings.consumeFromWhere(), new HashSet<>(subscriptions.values()));
    }

    @Override
    public Set<String> subscribedTopics() {
        return Set.copyOf(subscriptions.keySet());
    }

    @Override
    public void rebalance() {
        Rebalancer r = rebalancer;
        if (r != null && !stopped) {
            Set<String> resets = Set.copyOf(resetTopics);
            resetTopics.removeAll(resets);
            r.run(resets);
        }
    }

    @Override
    public void consumerIdsChanged() {
        // the instance runs the rebalance soon; nothing else to do
    }

    @Override
    public void offsetsReset(String topic) {
        if (settings.clustering()) {
            resetTopics.add(topic);
        }
    }

    @Override
    public void persistOffsets() {
        OffsetStore store = offsetStore;
        if (store != null && !stopped) {
            store.persistAll(Set.copyOf(processQueues.keySet()));
        }
    }

    // ------------------------------------------------------------------ shared by the services

    PushSettings settings() {
        return settings;
    }

    ClientInstance instance() {
        return instance;
    }

    OffsetStore offsetStore() {
        return offsetStore;
    }

    ConsumeService consumeService() {
        return consumeService;
    }

    PullService pullService() {
        return pullService;
    }

    QueueAllocator allocator() {
        return allocator;
    }

    Map<String, SubscriptionData> subscriptions() {
        return subscriptions;
    }

    SubscriptionData subscription(String topic) {
        return subscriptions.get(topic);
    }

    /** The queues this member owns now, with their process queues (live view). */
    public Map<MessageQueue, ProcessQueue> processQueues() {
        return processQueues;
    }

    boolean isPaused() {
        return paused;
    }

    boolean isStopped() {
        return stopped;
    }

    /**
     * Messages of the group's retry topic carry their original topic in RETRY_TOPIC; give it back, so the
     * application sees the topic it subscribed to.
     */
    void restoreRetryTopic(List<MessageExt> msgs) {
        String retry = SystemTopics.retryTopic(settings.group());
        for (MessageExt msg : msgs) {
            String original = msg.getProperty(MessageProperties.RETRY_TOPIC);
            if (original != null && retry.equals(msg.getTopic())) {
                msg.setTopic(original);
            }
        }
    }

    /**
     * Asks the broker to store the message again for a later retry (CONSUMER_SEND_MSG_BACK).
     *
     * @param delayLevel 0 = the broker decides, -1 = straight to the dead-letter queue
     * @return whether the broker took it
     */
    boolean sendMessageBack(MessageExt msg, int delayLevel) {
        ClientInstance current = instance;
        if (current == null) {
            return false;
        }
        String address = msg.getBrokerName() == null ? null : current.masterAddress(msg.getBrokerName());
        if (address == null) {
            address = HostAddress.toString(msg.getStoreHost());
        }
        String origin = msg.getProperty(MessageProperties.ORIGIN_MESSAGE_ID);
        ConsumerSendMsgBackRequest header = new ConsumerSendMsgBackRequest(msg.getCommitLogOffset(), settings.group(),
                delayLevel, origin != null ? origin : msg.getMsgId(), msg.getTopic(), settings.maxReconsumeTimes());
        try {
            current.messageApi().sendMessageBack(address, header, current.apiTimeoutMillis());
            return true;
        } catch (ClientException e) {
            log.warn("Group {}: sending message {} back for retry failed ({}); it will be consumed again here",
                    settings.group(), msg.getMsgId(), e.getMessage());
            return false;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    private static String safe(String name) {
        return name.replace(':', '_').replace('/', '_').replace('\\', '_');
    }
}
