package dev.wharf.spring.core;

import dev.wharf.client.ClientException;
import dev.wharf.client.producer.Producer;
import dev.wharf.client.producer.SelectMessageQueueByHash;
import dev.wharf.client.producer.SendCallback;
import dev.wharf.client.producer.SendResult;
import dev.wharf.client.producer.SendStatus;
import dev.wharf.jms.core.WharfSession;
import dev.wharf.spring.support.WharfHeaders;
import dev.wharf.spring.support.WharfMessageConverters;
import dev.wharf.spring.support.WharfMessages;
import io.micrometer.observation.Observation;
import io.micrometer.observation.ObservationRegistry;
import jakarta.jms.ConnectionFactory;
import jakarta.jms.JMSException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.function.Supplier;
import org.springframework.beans.factory.DisposableBean;
import org.springframework.messaging.Message;
import org.springframework.messaging.MessageDeliveryException;
import org.springframework.messaging.MessagingException;
import org.springframework.messaging.core.AbstractMessageSendingTemplate;
import org.springframework.messaging.support.MessageBuilder;
import org.springframework.transaction.support.TransactionSynchronizationManager;

/**
 * Sends to Wharf topics with the broker's own features: destinations written {@code topic} or {@code topic:tag},
 * payloads converted by the template's {@link org.springframework.messaging.converter.MessageConverter} (byte[],
 * String, else JSON), keys and user properties from the headers ({@link WharfHeaders}), synchronous, asynchronous
 * and one-way sends, sends in order per sharding key, delayed sends (a delay level, a delay or a delivery time),
 * batches, and request/reply.
 *
 * <p><b>Transactions.</b> Inside a Spring-managed transaction (e.g. a {@code @Transactional} method with the
 * DataSource's transaction manager), every send joins the transaction's transacted JMS session, the one a
 * JmsTemplate on the same connection factory uses: the messages become half messages of one Wharf transaction,
 * whose id the starter records in the transaction-log table with the database work, and they become visible only
 * when the database commits (never when it rolls back), together with JmsTemplate's messages. There is no
 * transaction listener per template: any number of templates join the same mechanism. Within a transaction every
 * send is synchronous (an asynchronous or one-way send completes when the half message is stored), and all messages
 * of one topic go to one queue of one broker (the transaction's): a sharding key that picks another queue of a topic
 * the transaction already sent to is refused.
 *
 * <p>Outside a transaction, sends go through the template's own producer. Thread-safe.
 */
public class WharfTemplate extends AbstractMessageSendingTemplate<String> implements DisposableBean {

    private static final SelectMessageQueueByHash BY_HASH = new SelectMessageQueueByHash();

    private final Supplier<Producer> producerFactory;
    private volatile Producer producer;
    private final TransactionalSessions transactions;
    private final ConnectionFactory connectionFactory;
    private final SendObservations observations;
    private final Object startLock = new Object();
    private volatile boolean started;
    private volatile boolean destroyed;

    /**
     * @param producer          the producer for sends outside transactions; the template starts it on first use
     *                          and shuts it down with itself
     * @param connectionFactory Wharf's JMS connection factory (the application's {@code jmsConnectionFactory}),
     *                          through which sends join Spring-managed transactions and replies are received; null
     *                          to send outside transactions only
     * @param observations      where sends are observed; {@link ObservationRegistry#NOOP} for none
     */
    public WharfTemplate(Producer producer, ConnectionFactory connectionFactory, ObservationRegistry observations) {
        this(supplierOf(Objects.requireNonNull(producer, "producer")), connectionFactory, observations);
    }

    /**
     * @param producerFactory creates the producer on the first send outside a transaction (so that creating the
     *                        template does not yet resolve the broker address)
     */
    public WharfTemplate(Supplier<Producer> producerFactory, ConnectionFactory connectionFactory,
                         ObservationRegistry observations) {
        this.producerFactory = Objects.requireNonNull(producerFactory, "producerFactory");
        this.connectionFactory = connectionFactory;
        this.transactions = new TransactionalSessions(connectionFactory);
        this.observations = new SendObservations(observations == null ? ObservationRegistry.NOOP : observations);
        setMessageConverter(WharfMessageConverters.defaults());
    }

    // ------------------------------------------------------------------ AbstractMessageSendingTemplate

    @Override
    protected void doSend(String destination, Message<?> message) {
        syncSend(destination, message);
    }

    // ------------------------------------------------------------------ synchronous sends

    /** Sends the payload and waits until the broker stored it (or the transaction holds it). */
    public SendResult syncSend(String destination, Object payload) {
        return syncSend(destination, toMessage(payload, null));
    }

    /** Sends the payload with headers (keys, tags, user properties: see {@link WharfHeaders}). */
    public SendResult syncSend(String destination, Object payload, Map<String, Object> headers) {
        return syncSend(destination, toMessage(payload, headers));
    }

    /** Sends a Spring message whose payload the converter turns into the body. */
    public SendResult syncSend(String destination, Message<?> message) {
        Destination d = Destination.parse(destination);
        dev.wharf.common.message.Message out = toWharf(d, message);
        String shardingKey = headerString(message, WharfHeaders.SHARDING_KEY);
        return observations.observe(d.topic(), "sync", () -> send(out, shardingKey));
    }

    /**
     * Sends messages of one topic as one batch: stored together, in order, in one queue. Delayed messages cannot
     * be batched.
     */
    public SendResult syncSend(String destination, Collection<? extends Message<?>> messages) {
        Destination d = Destination.parse(destination);
        if (messages == null || messages.isEmpty()) {
            throw new IllegalArgumentException("The batch for " + destination + " is empty; give at least one message.");
        }
        List<dev.wharf.common.message.Message> batch = new ArrayList<>(messages.size());
        for (Message<?> m : messages) {
            batch.add(toWharf(d, m));
        }
        return observations.observe(d.topic(), "batch", () -> {
            WharfSession session = transactions.current();
            if (session != null) {
                List<String> ids = new ArrayList<>(batch.size());
                for (dev.wharf.common.message.Message m : batch) {
                    ids.add(session.sendNative(m, null));
                }
                return inTransaction(String.join(",", ids), session);
            }
            return started().send(batch);
        });
    }

    /**
     * Sends the payload to the queue its hash key picks: messages with the same key are stored, and consumed by an
     * ORDERLY listener, in the order sent.
     */
    public SendResult syncSendOrderly(String destination, Object payload, String hashKey) {
        Objects.requireNonNull(hashKey, "hashKey");
        return syncSend(destination, toMessage(payload, Map.of(WharfHeaders.SHARDING_KEY, hashKey)));
    }

    /** Sends the payload to be delivered after the broker's delay level (1..n of its messageDelayLevel). */
    public SendResult syncSendDelayLevel(String destination, Object payload, int delayLevel) {
        if (delayLevel < 1) {
            throw new IllegalArgumentException("The delay level is " + delayLevel + "; give 1 or more (1 = the"
                    + " first level of the broker's messageDelayLevel, 1 s by default).");
        }
        return syncSend(destination, toMessage(payload, Map.of(WharfHeaders.DELAY_LEVEL, delayLevel)));
    }

    /** Sends the payload to be delivered {@code delayMillis} from now. */
    public SendResult syncSendDelayTimeMs(String destination, Object payload, long delayMillis) {
        if (delayMillis < 0) {
            throw new IllegalArgumentException("The delay is " + delayMillis + " ms; give 0 or more.");
        }
        return syncSendDeliverTimeMs(destination, payload, System.currentTimeMillis() + delayMillis);
    }

    /** Sends the payload to be delivered at {@code deliverAtMillis} (epoch ms). */
    public SendResult syncSendDeliverTimeMs(String destination, Object payload, long deliverAtMillis) {
        return syncSend(destination, toMessage(payload, Map.of(WharfHeaders.DELIVERY_TIME, deliverAtMillis)));
    }

    // ------------------------------------------------------------------ asynchronous and one-way sends

    /** Sends without waiting; the future completes when the broker stored the message (or failed). */
    public CompletableFuture<SendResult> asyncSend(String destination, Object payload) {
        return asyncSend(destination, toMessage(payload, null));
    }

    /** {@link #asyncSend(String, Object)} of a Spring message. */
    public CompletableFuture<SendResult> asyncSend(String destination, Message<?> message) {
        Destination d = Destination.parse(destination);
        dev.wharf.common.message.Message out = toWharf(d, message);
        String shardingKey = headerString(message, WharfHeaders.SHARDING_KEY);
        try {
            if (transactions.current() != null || shardingKey != null) {
                return CompletableFuture.completedFuture(syncSend(destination, message));
            }
        } catch (JMSException e) {
            return CompletableFuture.failedFuture(failure(d.topic(), e));
        } catch (RuntimeException e) {
            return CompletableFuture.failedFuture(e);
        }
        return observations.observeAsync(d.topic(), () -> started().sendAsync(out));
    }

    /** {@link #asyncSend(String, Object)} with a callback (called once, on a client thread; do not block in it). */
    public void asyncSend(String destination, Object payload, SendCallback callback) {
        Objects.requireNonNull(callback, "callback");
        asyncSend(destination, payload).whenComplete((result, error) -> {
            if (error != null) {
                callback.onException(error instanceof java.util.concurrent.CompletionException c
                        && c.getCause() != null ? c.getCause() : error);
            } else {
                callback.onSuccess(result);
            }
        });
    }

    /** Sends without waiting for the broker: no result, no retry, the message may be lost. */
    public void sendOneWay(String destination, Object payload) {
        Destination d = Destination.parse(destination);
        Message<?> message = toMessage(payload, null);
        dev.wharf.common.message.Message out = toWharf(d, message);
        observations.observe(d.topic(), "oneway", () -> {
            WharfSession session = transactions.current();
            if (session != null) {
                return inTransaction(session.sendNative(out, null), session);
            }
            started().sendOneway(out);
            return null;
        });
    }

    // ------------------------------------------------------------------ request / reply

    /**
     * Sends a request and waits for the reply of a {@code @MessageListener} method (its return value), converted
     * to {@code replyType}. The request carries a temporary reply queue (in JMS's {@code JMSReplyTo} property, so
     * JMS consumers can reply as well). Not in a transaction: the request would not be visible before the commit.
     *
     * @return the reply, or null when none came within the timeout
     */
    public <T> T sendAndReceive(String destination, Object request, Class<T> replyType, Duration timeout) {
        if (connectionFactory == null) {
            throw new IllegalStateException("sendAndReceive receives the reply through Wharf's JMS connection"
                    + " factory, and this template has none.");
        }
        if (TransactionSynchronizationManager.isActualTransactionActive()) {
            throw new IllegalStateException("sendAndReceive inside a transaction would wait for a reply to a"
                    + " request that is not visible before the commit; send the request outside the transaction.");
        }
        Destination d = Destination.parse(destination);
        return new Requests(connectionFactory, getMessageConverter()).sendAndReceive(timeout, replyTo -> {
            Map<String, Object> headers = new HashMap<>();
            headers.put(WharfHeaders.REPLY_TO, replyTo);
            dev.wharf.common.message.Message out = toWharf(d, toMessage(request, headers));
            observations.observe(d.topic(), "request", () -> started().send(out));
        }, replyType);
    }

    // ------------------------------------------------------------------ internals

    private SendResult send(dev.wharf.common.message.Message out, String shardingKey) throws Exception {
        WharfSession session = transactions.current();
        if (session != null) {
            return inTransaction(session.sendNative(out, shardingKey), session);
        }
        Producer p = started();
        return shardingKey == null ? p.send(out) : p.send(out, BY_HASH, shardingKey);
    }

    private static SendResult inTransaction(String msgId, WharfSession session) {
        return new SendResult(SendStatus.SEND_OK, msgId, null, null, -1, session.transactionId());
    }

    private Message<?> toMessage(Object payload, Map<String, Object> headers) {
        Objects.requireNonNull(payload, "payload");
        if (payload instanceof Message<?> m) {
            return headers == null ? m : MessageBuilder.fromMessage(m).copyHeaders(headers).build();
        }
        return doConvert(payload, headers, null);
    }

    /** The broker message of a Spring message: its payload converted when it is not bytes or text already. */
    private dev.wharf.common.message.Message toWharf(Destination d, Message<?> message) {
        Object payload = message.getPayload();
        Message<?> converted = payload instanceof byte[] || payload instanceof String ? message
                : doConvert(payload, message.getHeaders(), null);
        try {
            return WharfMessages.toWharf(d.topic(), d.tag(), converted);
        } catch (IllegalArgumentException e) {
            throw new MessageDeliveryException(message, e.getMessage(), e);
        }
    }

    private static String headerString(Message<?> message, String name) {
        Object value = message.getHeaders().get(name);
        return value == null ? null : value.toString();
    }

    private Producer started() {
        if (started) {
            return producer;
        }
        synchronized (startLock) {
            if (destroyed) {
                throw new IllegalStateException("The WharfTemplate is shut down (the application is stopping).");
            }
            if (!started) {
                Producer p = producerFactory.get();
                try {
                    p.start();
                } catch (ClientException e) {
                    throw new MessagingException("The WharfTemplate's producer " + p.getProducerGroup()
                            + " could not start: " + e.getMessage(), e);
                }
                producer = p;
                started = true;
            }
        }
        return producer;
    }

    private static Supplier<Producer> supplierOf(Producer producer) {
        return () -> producer;
    }

    static MessagingException failure(String topic, Exception e) {
        if (e instanceof MessagingException m) {
            return m;
        }
        if (e instanceof InterruptedException) {
            Thread.currentThread().interrupt();
        }
        MessageDeliveryException failure = new MessageDeliveryException("Sending to topic " + topic + " failed: "
                + e.getMessage() + (e instanceof ClientException ? "" : " (" + e.getClass().getSimpleName() + ")"));
        failure.initCause(e);
        return failure;
    }


    @Override
    public void destroy() {
        synchronized (startLock) {
            destroyed = true;
            if (started) {
                producer.shutdown();
                started = false;
            }
        }
    }
}
