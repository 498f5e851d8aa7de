package dev.wharf.spring.support;

/**
 * Names of the Spring message headers that carry a Wharf message's system fields, for {@code @Header} parameters
 * of a {@code @MessageListener} method and for the headers given to {@code WharfTemplate}. A user property of the
 * message is a header under its own name.
 */
public final class WharfHeaders {

    private static final String PREFIX = "wharf_";

    /** The message keys (space-separated; indexed by the broker for queries). String. */
    public static final String KEYS = PREFIX + "keys";
    /** The tag. String. */
    public static final String TAGS = PREFIX + "tags";
    /** The topic the message was sent to (not the retry topic). String. */
    public static final String TOPIC = PREFIX + "topic";
    /** The client-assigned unique message id (the same through retries). String. */
    public static final String MESSAGE_ID = PREFIX + "messageId";
    /** The queue of the topic the message was read from. int. */
    public static final String QUEUE_ID = PREFIX + "queueId";
    /** The offset of the message in its queue. long. */
    public static final String QUEUE_OFFSET = PREFIX + "queueOffset";
    /** How many times the message failed before this delivery. int. */
    public static final String RECONSUME_TIMES = PREFIX + "reconsumeTimes";
    /** When the producer created the message, epoch ms. long. */
    public static final String BORN_TIMESTAMP = PREFIX + "bornTimestamp";
    /** When the broker stored the message, epoch ms. long. */
    public static final String STORE_TIMESTAMP = PREFIX + "storeTimestamp";
    /** The broker that stored the message. String. */
    public static final String BROKER_NAME = PREFIX + "brokerName";
    /** The whole received message ({@code dev.wharf.common.message.MessageExt}). */
    public static final String RAW_MESSAGE = PREFIX + "rawMessage";

    /** On a send: the delay level (1..n of the broker's messageDelayLevel). int. */
    public static final String DELAY_LEVEL = PREFIX + "delayLevel";
    /** On a send: the delivery time, epoch ms. long. */
    public static final String DELIVERY_TIME = PREFIX + "deliveryTime";
    /** On a send: the sharding key; messages with the same key go to the same queue, in order. String. */
    public static final String SHARDING_KEY = PREFIX + "shardingKey";

    /**
     * Where the reply to a request goes: a destination URI ({@code queue://name}, {@code topic://name},
     * {@code temp-queue://name}), stored in the property JMS uses, so JMS requesters and Wharf listeners meet.
     */
    public static final String REPLY_TO = "JMSReplyTo";
    /** The correlation id of a request and its reply, stored in the property JMS uses. String. */
    public static final String CORRELATION_ID = "JMSCorrelationID";

    private WharfHeaders() {
    }

    /** Whether a header name is one of Wharf's system headers (not a user property). */
    static boolean isSystem(String name) {
        return name.startsWith(PREFIX);
    }
}
