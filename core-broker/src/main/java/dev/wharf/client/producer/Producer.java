package dev.wharf.client.producer;

import dev.wharf.client.ClientConfig;
import dev.wharf.client.ClientException;
import dev.wharf.client.impl.ClientInstance;
import dev.wharf.client.impl.SendReply;
import dev.wharf.common.TopicValidator;
import dev.wharf.common.message.Message;
import dev.wharf.common.message.MessageQueue;
import dev.wharf.protocol.ResponseCode;
import java.util.Collection;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Semaphore;

/**
 * Sends messages to the brokers that serve a topic.
 *
 * <p><b>Delivery.</b> A send that returns a {@link SendResult} was stored by the broker. A sync send that fails
 * (no answer, or a refusal that another broker may not give: busy, unavailable, no permission, unknown topic) is
 * retried {@code retryTimesWhenSendFailed} times within {@code sendMsgTimeout}, preferring another broker; a
 * message whose first attempt timed out may nevertheless have been stored, so a retry can store it twice. A
 * failure that certainly stored nothing (no master known, no connection, a replica refusing as unavailable while a
 * failover is under way) does not use up a retry: the send pauses briefly, takes the freshest route and tries again
 * until {@code sendMsgTimeout}, so a send through a master failover succeeds when the new master takes over within
 * the timeout. Sends to a chosen queue retry the same way on that queue's broker name. Both
 * copies carry the same client unique id ({@link SendResult#msgId()}, the UNIQ_KEY property), assigned before the
 * first attempt: producers give at-least-once, consumers deduplicate by that id or by business keys.
 *
 * <p><b>Ordering.</b> Messages sent one after another by one thread to one queue (through a
 * {@link MessageQueueSelector} or {@link #send(Message, MessageQueue)}) are stored in that order; those sends are
 * not retried on another queue (a retry after a lost answer may store a message twice; the first copies stay in
 * order). Round-robin sends spread over all queues and have no order among them.
 *
 * <p>Thread-safe after {@link #start()}. One producer per group per client id.
 */
public class Producer {

    private final String producerGroup;
    private final ClientConfig config;
    private int retryTimesWhenSendFailed = 2;
    private int retryTimesWhenSendAsyncFailed = 2;
    private int sendMsgTimeout = 3000;
    private int sendAttemptTimeout = 3000;
    private int compressMsgBodyOverHowmuch = 4096;
    private int maxMessageSize = 4 * 1024 * 1024;
    private int maxInFlightAsyncRequests = 1000;
    private int defaultTopicQueueNums = 8;
    private boolean sendLatencyFaultEnable = true;
    private boolean retryAnotherBrokerWhenNotStoreOK;

    private volatile ClientInstance instance;
    private volatile MessageSender sender;
    private volatile boolean shutDown;

    public Producer(String producerGroup) {
        this(producerGroup, new ClientConfig());
    }

    public Producer(String producerGroup, ClientConfig config) {
        this.producerGroup = producerGroup;
        this.config = Objects.requireNonNull(config, "config");
    }

    /**
     * Joins the client instance of the configuration and registers the producer group.
     *
     * @throws ClientException when the group name is invalid, the NameServer address is missing, or the group is
     *                         already started in this client id
     */
    public synchronized void start() throws ClientException {
        if (instance != null) {
            throw new IllegalStateException("Producer " + producerGroup + " is already started");
        }
        if (shutDown) {
            throw new IllegalStateException("Producer " + producerGroup + " was shut down; create a new one");
        }
        String error = TopicValidator.checkGroup(producerGroup);
        if (error != null) {
            throw new ClientException(error);
        }
        ClientInstance acquired = ClientInstance.acquire(config);
        try {
            acquired.registerProducer(producerGroup);
        } catch (ClientException e) {
            acquired.release();
            throw e;
        }
        sender = new MessageSender(this, acquired, new Semaphore(maxInFlightAsyncRequests));
        instance = acquired;
        acquired.sendHeartbeatToAllBrokers();
    }

    /** Leaves the producer group and gives the client instance back. Idempotent. */
    public synchronized void shutdown() {
        ClientInstance current = instance;
        shutDown = true;
        if (current == null) {
            return;
        }
        instance = null;
        current.unregisterProducer(producerGroup);
        current.release();
    }

    // ------------------------------------------------------------------ sends

    /** Sends synchronously with retries; see the class comment for what a result and a failure mean. */
    public SendResult send(Message msg) throws ClientException, InterruptedException {
        return send(msg, sendMsgTimeout);
    }

    /** Like {@link #send(Message)}, with {@code timeoutMillis} for all attempts together. */
    public SendResult send(Message msg, long timeoutMillis) throws ClientException, InterruptedException {
        MessageSender s = started();
        return s.sendSync(OutgoingMessage.of(msg, maxMessageSize, compressMsgBodyOverHowmuch), timeoutMillis);
    }

    /** Sends asynchronously with {@code retryTimesWhenSendAsyncFailed} retries; the callback gets the outcome. */
    public void send(Message msg, SendCallback callback) {
        Objects.requireNonNull(callback, "callback");
        sendAsync(msg).whenComplete((result, error) -> {
            if (error != null) {
                callback.onException(error instanceof java.util.concurrent.CompletionException && error.getCause() != null
                        ? error.getCause() : error);
            } else {
                callback.onSuccess(result);
            }
        });
    }

    /**
     * Sends asynchronously. At most {@code maxInFlightAsyncRequests} sends are in flight; beyond that this call
     * waits up to {@code sendMsgTimeout} for a slot, then fails the future.
     */
    public CompletableFuture<SendResult> sendAsync(Message msg) {
        try {
            MessageSender s = started();
            return s.sendAsync(OutgoingMessage.of(msg, maxMessageSize, compressMsgBodyOverHowmuch), sendMsgTimeout);
        } catch (ClientException | RuntimeException e) {
            return CompletableFuture.failedFuture(e);
        }
    }

    /** Sends without waiting for the broker: no result, no retry; the message may be lost. */
    public void sendOneway(Message msg) throws ClientException, InterruptedException {
        MessageSender s = started();
        s.sendOneway(OutgoingMessage.of(msg, maxMessageSize, compressMsgBodyOverHowmuch), sendMsgTimeout);
    }

    /** Sends to the queue the selector picks (per-key ordering); not retried on another queue. */
    public SendResult send(Message msg, MessageQueueSelector selector, Object arg)
            throws ClientException, InterruptedException {
        Objects.requireNonNull(selector, "selector");
        MessageSender s = started();
        OutgoingMessage out = OutgoingMessage.of(msg, maxMessageSize, compressMsgBodyOverHowmuch);
        List<MessageQueue> queues = s.requireRoutedPublishInfo(out.topic).queues();
        MessageQueue mq = selector.select(queues, msg, arg);
        if (mq == null || !queues.contains(mq)) {
            throw new ClientException(ResponseCode.MESSAGE_ILLEGAL, "The MessageQueueSelector "
                    + selector.getClass().getName() + " returned " + mq + ", which is not one of the " + queues.size()
                    + " writable queues of topic " + out.topic + "; return an element of the list it is given.");
        }
        return s.sendToQueue(out, mq, sendMsgTimeout);
    }

    /** Sends to this queue; not retried on another queue. */
    public SendResult send(Message msg, MessageQueue mq) throws ClientException, InterruptedException {
        Objects.requireNonNull(mq, "mq");
        MessageSender s = started();
        OutgoingMessage out = OutgoingMessage.of(msg, maxMessageSize, compressMsgBodyOverHowmuch);
        if (!out.topic.equals(mq.topic())) {
            throw new ClientException(ResponseCode.MESSAGE_ILLEGAL, "The message is for topic " + out.topic
                    + " but the queue " + mq + " belongs to topic " + mq.topic() + ".");
        }
        return s.sendToQueue(out, mq, sendMsgTimeout);
    }

    /**
     * Sends messages of one topic as one request into one queue (stored together, in order), with the retries of
     * a sync send. Every message gets its own unique id; {@link SendResult#msgId()} joins them with commas.
     */
    public SendResult send(Collection<Message> batch) throws ClientException, InterruptedException {
        MessageSender s = started();
        return s.sendSync(OutgoingMessage.batch(batch, maxMessageSize), sendMsgTimeout);
    }

    /** The topic's writable queues (from the NameServer route). */
    public List<MessageQueue> fetchPublishMessageQueues(String topic) throws ClientException, InterruptedException {
        OutgoingMessage.checkTopic(topic);
        return started().requireRoutedPublishInfo(topic).queues();
    }

    /** The client instance this producer uses (e.g. to register a transaction check handler). */
    public ClientInstance clientInstance() {
        ClientInstance current = instance;
        if (current == null) {
            throw notStarted();
        }
        return current;
    }

    /** The send paths of the started producer (the transaction producer sends through them too). */
    MessageSender started() {
        MessageSender s = sender;
        if (s == null || instance == null) {
            throw notStarted();
        }
        return s;
    }

    private IllegalStateException notStarted() {
        return new IllegalStateException("Producer " + producerGroup + (shutDown ? " was shut down" : " is not started")
                + "; call start() before sending");
    }

    static SendResult toResult(SendReply reply, OutgoingMessage out, MessageQueue mq) {
        SendStatus status = switch (reply.code()) {
            case ResponseCode.FLUSH_DISK_TIMEOUT -> SendStatus.FLUSH_DISK_TIMEOUT;
            case ResponseCode.FLUSH_SLAVE_TIMEOUT -> SendStatus.FLUSH_SLAVE_TIMEOUT;
            case ResponseCode.SLAVE_NOT_AVAILABLE -> SendStatus.SLAVE_NOT_AVAILABLE;
            default -> SendStatus.SEND_OK;
        };
        MessageQueue stored = new MessageQueue(mq.topic(), mq.brokerName(), reply.queueId());
        String transactionId = reply.transactionId() != null ? reply.transactionId() : out.transactionId;
        return new SendResult(status, out.uniqueIds, reply.offsetMsgId(), stored, reply.queueOffset(), transactionId);
    }

    // ------------------------------------------------------------------ options (JavaBean)

    public String getProducerGroup() {
        return producerGroup;
    }

    public ClientConfig getClientConfig() {
        return config;
    }

    /** Retries of a failed sync send (default 2), preferably on another broker. */
    public int getRetryTimesWhenSendFailed() {
        return retryTimesWhenSendFailed;
    }

    public void setRetryTimesWhenSendFailed(int retryTimesWhenSendFailed) {
        this.retryTimesWhenSendFailed = atLeast("retryTimesWhenSendFailed", retryTimesWhenSendFailed, 0);
    }

    /** Retries of a failed async send (default 2). */
    public int getRetryTimesWhenSendAsyncFailed() {
        return retryTimesWhenSendAsyncFailed;
    }

    public void setRetryTimesWhenSendAsyncFailed(int retryTimesWhenSendAsyncFailed) {
        this.retryTimesWhenSendAsyncFailed = atLeast("retryTimesWhenSendAsyncFailed", retryTimesWhenSendAsyncFailed, 0);
    }

    /** Time for a send including its retries, in ms (default 3000). */
    public int getSendMsgTimeout() {
        return sendMsgTimeout;
    }

    public void setSendMsgTimeout(int sendMsgTimeout) {
        this.sendMsgTimeout = atLeast("sendMsgTimeout", sendMsgTimeout, 1);
    }

    /**
     * Most time one attempt of a send may wait for its answer, in ms (default 3000); a send's attempts together
     * stay within {@code sendMsgTimeout}. With a send timeout longer than this, a send whose master is paused or
     * cut off gives up on it after this long and waits, without sending again, for the route to name the new master
     * (a replica the controllers elect), so it can ride through the failover. Lower values fail over sooner but
     * give up on a master that is merely slow (the attempt may still have been stored: a retry may store twice).
     */
    public int getSendAttemptTimeout() {
        return sendAttemptTimeout;
    }

    public void setSendAttemptTimeout(int sendAttemptTimeout) {
        this.sendAttemptTimeout = atLeast("sendAttemptTimeout", sendAttemptTimeout, 1);
    }

    /** Bodies larger than this many bytes are deflate-compressed (default 4096). */
    public int getCompressMsgBodyOverHowmuch() {
        return compressMsgBodyOverHowmuch;
    }

    public void setCompressMsgBodyOverHowmuch(int compressMsgBodyOverHowmuch) {
        this.compressMsgBodyOverHowmuch = atLeast("compressMsgBodyOverHowmuch", compressMsgBodyOverHowmuch, 0);
    }

    /** Largest body (or encoded batch) in bytes, checked before sending (default 4 MiB, as the broker). */
    public int getMaxMessageSize() {
        return maxMessageSize;
    }

    public void setMaxMessageSize(int maxMessageSize) {
        this.maxMessageSize = atLeast("maxMessageSize", maxMessageSize, 1);
    }

    /** Most async sends in flight at once (default 1000); set before start. */
    public int getMaxInFlightAsyncRequests() {
        return maxInFlightAsyncRequests;
    }

    public void setMaxInFlightAsyncRequests(int maxInFlightAsyncRequests) {
        this.maxInFlightAsyncRequests = atLeast("maxInFlightAsyncRequests", maxInFlightAsyncRequests, 1);
    }

    /** Queues a broker creates for a topic it creates on a first send (when it auto-creates topics). */
    public int getDefaultTopicQueueNums() {
        return defaultTopicQueueNums;
    }

    public void setDefaultTopicQueueNums(int defaultTopicQueueNums) {
        this.defaultTopicQueueNums = atLeast("defaultTopicQueueNums", defaultTopicQueueNums, 1);
    }

    /** Whether to avoid brokers that recently failed or were slow (default true). */
    public boolean isSendLatencyFaultEnable() {
        return sendLatencyFaultEnable;
    }

    public void setSendLatencyFaultEnable(boolean sendLatencyFaultEnable) {
        this.sendLatencyFaultEnable = sendLatencyFaultEnable;
    }

    /** Whether a send stored with a status other than SEND_OK is retried on another broker (default false). */
    public boolean isRetryAnotherBrokerWhenNotStoreOK() {
        return retryAnotherBrokerWhenNotStoreOK;
    }

    public void setRetryAnotherBrokerWhenNotStoreOK(boolean retryAnotherBrokerWhenNotStoreOK) {
        this.retryAnotherBrokerWhenNotStoreOK = retryAnotherBrokerWhenNotStoreOK;
    }

    private static int atLeast(String name, int value, int min) {
        if (value < min) {
            throw new IllegalArgumentException(name + " must be at least " + min + ", got " + value);
        }
        return value;
    }

    @Override
    public String toString() {
        return "Producer{" + producerGroup + ", " + config + "}";
    }
}
