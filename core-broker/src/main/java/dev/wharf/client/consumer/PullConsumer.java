package dev.wharf.client.consumer;

import dev.wharf.client.ClientConfig;
import dev.wharf.client.ClientException;
import dev.wharf.client.consumer.offset.OffsetStore;
import dev.wharf.client.consumer.offset.ReadOffsetType;
import dev.wharf.client.consumer.offset.RemoteOffsetStore;
import dev.wharf.client.impl.ClientInstance;
import dev.wharf.client.impl.ConsumerMember;
import dev.wharf.client.impl.PullReply;
import dev.wharf.client.impl.RemotingCalls;
import dev.wharf.common.TopicValidator;
import dev.wharf.common.message.HostAddress;
import dev.wharf.common.message.MessageExt;
import dev.wharf.common.message.MessageProperties;
import dev.wharf.common.message.MessageQueue;
import dev.wharf.protocol.body.Heartbeat.ConsumerData;
import dev.wharf.protocol.body.Heartbeat.SubscriptionData;
import dev.wharf.protocol.header.MessageHeaders.ConsumerSendMsgBackRequest;
import dev.wharf.protocol.header.MessageHeaders.PullMessageRequest;
import dev.wharf.protocol.header.MessageHeaders.PullSysFlag;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.CompletableFuture;

/**
 * Pulls from queues the application chooses, at offsets it chooses. Offsets given to
 * {@link #updateConsumeOffset} are kept in memory and committed to the broker every
 * {@code persistConsumerOffsetInterval} and on shutdown.
 *
 * <p>A pull consumer does not join its group's membership (it sends no consumer heartbeat), so it never takes
 * queues away from push consumers of the same group; it can, for example, browse a queue without moving anyone's
 * offset. Thread-safe after {@link #start()}.
 */
public class PullConsumer {

    private final String consumerGroup;
    private final ClientConfig config;
    private long consumerPullTimeoutMillis = 10_000;
    private long brokerSuspendMaxTimeMillis = 15_000;
    private long consumerTimeoutMillisWhenSuspend = 20_000;
    private int maxReconsumeTimes = 16;
    private volatile ClientInstance instance;
    private volatile OffsetStore offsetStore;
    private final Member member = new Member();

    public PullConsumer(String consumerGroup) {
        this(consumerGroup, new ClientConfig());
    }

    public PullConsumer(String consumerGroup, ClientConfig config) {
        this.consumerGroup = consumerGroup;
        this.config = Objects.requireNonNull(config, "config");
    }

    public synchronized void start() throws ClientException {
        if (instance != null) {
            throw new IllegalStateException("PullConsumer " + consumerGroup + " is already started");
        }
        String error = TopicValidator.checkGroup(consumerGroup);
        if (error != null) {
            throw new ClientException(error);
        }
        ClientInstance acquired = ClientInstance.acquire(config);
        offsetStore = new RemoteOffsetStore(acquired, consumerGroup);
        try {
            acquired.registerConsumer(member);
        } catch (ClientException e) {
            acquired.release();
            throw e;
        }
        instance = acquired;
    }

    /** Commits the offsets given to {@link #updateConsumeOffset} and gives the client instance back. */
    public synchronized void shutdown() {
        ClientInstance current = instance;
        if (current == null) {
            return;
        }
        offsetStore.persistAll(offsetStore.queues());
        current.unregisterConsumer(consumerGroup);
        current.release();
        instance = null;
    }

    /** The topic's readable queues, fetched from the NameServer now. */
    public Set<MessageQueue> fetchSubscribeMessageQueues(String topic) throws ClientException, InterruptedException {
        checkTopic(topic);
        Set<MessageQueue> queues = started().fetchSubscribeQueues(topic);
        if (queues.isEmpty()) {
            throw new ClientException(dev.wharf.protocol.ResponseCode.TOPIC_NOT_EXIST, "No route for topic " + topic
                    + ": is the topic created and a broker registered with the NameServer at "
                    + config.getNamesrvAddr() + "?");
        }
        return queues;
    }

    /** Pulls up to {@code maxNums} messages from {@code offset}; answers at once when there are none. */
    public PullResult pull(MessageQueue mq, MessageSelector selector, long offset, int maxNums)
            throws ClientException, InterruptedException {
        return pull(mq, selector, offset, maxNums, consumerPullTimeoutMillis);
    }

    public PullResult pull(MessageQueue mq, MessageSelector selector, long offset, int maxNums, long timeoutMillis)
            throws ClientException, InterruptedException {
        return pullSync(mq, selector, offset, maxNums, false, timeoutMillis);
    }

    /**
     * Pulls with long polling: when nothing is there yet the broker holds the request up to
     * {@code brokerSuspendMaxTimeMillis} and answers as soon as a message arrives.
     */
    public PullResult pullBlockIfNotFound(MessageQueue mq, MessageSelector selector, long offset, int maxNums)
            throws ClientException, InterruptedException {
        return pullSync(mq, selector, offset, maxNums, true, consumerTimeoutMillisWhenSuspend);
    }

    public CompletableFuture<PullResult> pullAsync(MessageQueue mq, MessageSelector selector, long offset, int maxNums) {
        return pullAsync(mq, selector, offset, maxNums, consumerPullTimeoutMillis);
    }

    /** The future fails with a {@link ClientException}. */
    public CompletableFuture<PullResult> pullAsync(MessageQueue mq, MessageSelector selector, long offset, int maxNums,
                                                   long timeoutMillis) {
        try {
            Request r = request(mq, selector, offset, maxNums, false);
            return r.instance.messageApi().pullAsync(r.address, mq.brokerName(), r.header, r.subscription,
                    timeoutMillis).whenComplete((reply, error) -> observe(r, mq, reply, error))
                    .thenApply(PullConsumer::toResult);
        } catch (ClientException | RuntimeException e) {
            return CompletableFuture.failedFuture(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return CompletableFuture.failedFuture(e);
        }
    }

    private PullResult pullSync(MessageQueue mq, MessageSelector selector, long offset, int maxNums, boolean block,
                                long timeoutMillis) throws ClientException, InterruptedException {
        Request r = request(mq, selector, offset, maxNums, block);
        PullReply reply;
        try {
            reply = r.instance.messageApi().pull(r.address, mq.brokerName(), r.header, r.subscription, timeoutMillis);
        } catch (ClientException e) {
            observe(r, mq, null, e);
            throw e;
        }
        observe(r, mq, reply, null);
        return toResult(reply);
    }

    /** Steers the queue's next pull: the broker's suggestion, or the group's other brokers after a failure. */
    private static void observe(Request r, MessageQueue mq, PullReply reply, Throwable error) {
        if (reply != null) {
            r.instance.reads().succeeded(r.address);
            r.instance.reads().suggest(mq, reply.suggestWhichBrokerId());
        } else if (error != null
                && RemotingCalls.asClientException(error).responseCode() == ClientException.NO_RESPONSE) {
            r.instance.reads().failed(r.address);
            r.instance.refreshRouteSoon(mq.topic());
        }
    }

    private record Request(ClientInstance instance, String address, PullMessageRequest header,
                           SubscriptionData subscription) {
    }

    private Request request(MessageQueue mq, MessageSelector selector, long offset, int maxNums, boolean block)
            throws ClientException, InterruptedException {
        Objects.requireNonNull(mq, "mq");
        if (offset < 0) {
            throw new IllegalArgumentException("offset must be >= 0, got " + offset);
        }
        if (maxNums < 1) {
            throw new IllegalArgumentException("maxNums must be at least 1, got " + maxNums);
        }
        ClientInstance current = started();
        SubscriptionData subscription = (selector == null ? MessageSelector.all() : selector).subscription(mq.topic());
        int sysFlag = PullSysFlag.SUBSCRIPTION | (block ? PullSysFlag.SUSPEND : 0);
        PullMessageRequest header = new PullMessageRequest(consumerGroup, mq.topic(), mq.queueId(), offset, maxNums,
                sysFlag, 0, block ? brokerSuspendMaxTimeMillis : 0, subscription.subString(),
                subscription.subVersion(), subscription.expressionType().name());
        String address = current.readAddress(mq);
        if (address == null) {
            address = current.requireOffsetAddress(mq.brokerName(), mq.topic());
        }
        return new Request(current, address, header, subscription);
    }

    private static PullResult toResult(PullReply reply) {
        return new PullResult(PullStatus.valueOf(reply.kind().name()), reply.nextBeginOffset(), reply.minOffset(),
                reply.maxOffset(), reply.messages());
    }

    // ------------------------------------------------------------------ offsets

    /** Records the group's offset of the queue (the next message to consume); committed periodically. */
    public void updateConsumeOffset(MessageQueue mq, long offset) {
        started();
        if (offset < 0) {
            throw new IllegalArgumentException("offset must be >= 0, got " + offset);
        }
        offsetStore.updateOffset(mq, offset, false);
    }

    /**
     * The group's offset of the queue: from memory (falling back to the broker), or from the broker when
     * {@code fromBroker}; -1 when the group has none.
     */
    public long fetchConsumeOffset(MessageQueue mq, boolean fromBroker) throws ClientException, InterruptedException {
        started();
        return offsetStore.readOffset(mq, fromBroker ? ReadOffsetType.READ_FROM_STORE
                : ReadOffsetType.MEMORY_FIRST_THEN_STORE);
    }

    public long minOffset(MessageQueue mq) throws ClientException, InterruptedException {
        ClientInstance current = started();
        return current.offsetApi().minOffset(current.requireOffsetAddress(mq.brokerName(), mq.topic()), mq.topic(),
                mq.queueId(), current.apiTimeoutMillis());
    }

    /** The offset the next message of the queue will get. */
    public long maxOffset(MessageQueue mq) throws ClientException, InterruptedException {
        ClientInstance current = started();
        return current.offsetApi().maxOffset(current.requireOffsetAddress(mq.brokerName(), mq.topic()), mq.topic(),
                mq.queueId(), current.apiTimeoutMillis());
    }

    /** The offset of the first message stored at or after {@code timestamp} (epoch ms). */
    public long searchOffset(MessageQueue mq, long timestamp) throws ClientException, InterruptedException {
        ClientInstance current = started();
        return current.offsetApi().searchOffset(current.requireOffsetAddress(mq.brokerName(), mq.topic()), mq.topic(),
                mq.queueId(), timestamp, current.apiTimeoutMillis());
    }

    /**
     * Hands a message that could not be consumed back to the broker, which redelivers it to the group (through
     * the group's retry topic) after a delay, or moves it to the dead-letter queue after maxReconsumeTimes.
     *
     * @param delayLevel 0 = the broker decides (3 + reconsumeTimes), -1 = straight to the dead-letter queue
     */
    public void sendMessageBack(MessageExt msg, int delayLevel) throws ClientException, InterruptedException {
        Objects.requireNonNull(msg, "msg");
        ClientInstance current = started();
        String address = msg.getBrokerName() == null ? null : current.masterAddress(msg.getBrokerName());
        if (address == null) {
            address = HostAddress.toString(msg.getStoreHost());
        }
        String origin = msg.getProperty(MessageProperties.ORIGIN_MESSAGE_ID);
        String topic = msg.getProperty(MessageProperties.RETRY_TOPIC) != null
                ? msg.getProperty(MessageProperties.RETRY_TOPIC) : msg.getTopic();
        current.messageApi().sendMessageBack(address, new ConsumerSendMsgBackRequest(msg.getCommitLogOffset(),
                consumerGroup, delayLevel, origin != null ? origin : msg.getMsgId(), topic, maxReconsumeTimes),
                current.apiTimeoutMillis());
    }

    private ClientInstance started() {
        ClientInstance current = instance;
        if (current == null) {
            throw new IllegalStateException("PullConsumer " + consumerGroup + " is not started; call start() first");
        }
        return current;
    }

    private static void checkTopic(String topic) throws ClientException {
        String error = TopicValidator.check(topic);
        if (error != null) {
            throw new ClientException(dev.wharf.protocol.ResponseCode.MESSAGE_ILLEGAL, error);
        }
    }

    // ------------------------------------------------------------------ options

    public String getConsumerGroup() {
        return consumerGroup;
    }

    /** Timeout of {@link #pull} without an explicit one, in ms (default 10000). */
    public long getConsumerPullTimeoutMillis() {
        return consumerPullTimeoutMillis;
    }

    public void setConsumerPullTimeoutMillis(long consumerPullTimeoutMillis) {
        this.consumerPullTimeoutMillis = positive("consumerPullTimeoutMillis", consumerPullTimeoutMillis);
    }

    /** How long the broker holds a {@link #pullBlockIfNotFound} request without messages, in ms (default 15000). */
    public long getBrokerSuspendMaxTimeMillis() {
        return brokerSuspendMaxTimeMillis;
    }

    public void setBrokerSuspendMaxTimeMillis(long brokerSuspendMaxTimeMillis) {
        this.brokerSuspendMaxTimeMillis = positive("brokerSuspendMaxTimeMillis", brokerSuspendMaxTimeMillis);
    }

    /** Socket timeout of a held pull; must exceed brokerSuspendMaxTimeMillis (default 20000). */
    public long getConsumerTimeoutMillisWhenSuspend() {
        return consumerTimeoutMillisWhenSuspend;
    }

    public void setConsumerTimeoutMillisWhenSuspend(long consumerTimeoutMillisWhenSuspend) {
        this.consumerTimeoutMillisWhenSuspend = positive("consumerTimeoutMillisWhenSuspend",
                consumerTimeoutMillisWhenSuspend);
    }

    /** Retries before a sent-back message goes to the dead-letter queue (default 16). */
    public int getMaxReconsumeTimes() {
        return maxReconsumeTimes;
    }

    public void setMaxReconsumeTimes(int maxReconsumeTimes) {
        this.maxReconsumeTimes = (int) positive("maxReconsumeTimes", maxReconsumeTimes);
    }

    private static long positive(String name, long value) {
        if (value <= 0) {
            throw new IllegalArgumentException(name + " must be positive, got " + value);
        }
        return value;
    }

    /** The instance's view of this consumer: offsets to persist, no membership. */
    private final class Member implements ConsumerMember {

        @Override
        public String groupName() {
            return consumerGroup;
        }

        @Override
        public ConsumerData heartbeatData() {
            return null;
        }

        @Override
        public Set<String> subscribedTopics() {
            return Set.of();
        }

        @Override
        public void rebalance() {
        }

        @Override
        public void consumerIdsChanged() {
        }

        @Override
        public void offsetsReset(String topic) {
            // the application manages a pull consumer's positions itself
        }

        @Override
        public void persistOffsets() {
            OffsetStore store = offsetStore;
            if (store != null) {
                store.persistAll(store.queues());
            }
        }
    }
}
