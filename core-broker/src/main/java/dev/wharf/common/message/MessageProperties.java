package dev.wharf.common.message;

/**
 * Names of the message properties the broker and client understand. Names follow RocketMQ's where RocketMQ
 * has an equivalent, so tools that know RocketMQ read our messages.
 */
public final class MessageProperties {

    /** Space-separated business keys, indexed for query by key. */
    public static final String KEYS = "KEYS";
    /** The tag; its hash goes into the consume-queue unit for broker-side filtering. */
    public static final String TAGS = "TAGS";
    /** Whether the producer waits for the store (flush) before the send returns. */
    public static final String WAIT_STORE_MSG_OK = "WAIT";
    /** Delay level (1..N of messageDelayLevel). */
    public static final String DELAY_TIME_LEVEL = "DELAY";
    /** Absolute delivery time in epoch milliseconds (arbitrary delays). */
    public static final String DELIVER_TIME_MS = "TIMER_DELIVER_MS";
    /** Relative delay in milliseconds, converted to {@link #DELIVER_TIME_MS} by the broker. */
    public static final String DELAY_MS = "TIMER_DELAY_MS";
    /** Relative delay in seconds (RocketMQ 5's {@code setDelayTimeSec}); the broker turns it into {@link #DELAY_MS}. */
    public static final String DELAY_SEC = "TIMER_DELAY_SEC";
    /**
     * Absolute delivery time in epoch milliseconds under its older RocketMQ name (clients of the 4.x line and their
     * cloud variants); the broker turns it into {@link #DELIVER_TIME_MS}.
     */
    public static final String START_DELIVER_TIME = "__STARTDELIVERTIME";
    /** Topic a scheduled, half or retried message really belongs to. */
    public static final String REAL_TOPIC = "REAL_TOPIC";
    /** Queue id a scheduled or half message really belongs to. */
    public static final String REAL_QUEUE_ID = "REAL_QID";
    /**
     * On a message the scheduler delivered: where it waited, as {@code queueId:queueOffset} in the schedule
     * topic. The scheduler finds these after a restart to never deliver one message twice; the broker drops it
     * from what clients send.
     */
    public static final String SCHEDULE_SOURCE = "SCHEDULE_SOURCE";
    /** "true" on a half (prepared) transaction message. */
    public static final String TRANSACTION_PREPARED = "TRAN_MSG";
    /** Producer group of a transaction message: check-backs go to a live member of it. */
    public static final String PRODUCER_GROUP = "PGROUP";
    /** Transaction id shared by every message of one transaction. */
    public static final String TRANSACTION_ID = "__transactionId__";
    /** On a committed message: the queue offset of its half message in RMQ_SYS_TRANS_HALF_TOPIC. */
    public static final String TRANSACTION_PREPARED_QUEUE_OFFSET = "TRAN_PREPARED_QUEUE_OFFSET";
    /** How often the broker has asked about this half message. */
    public static final String TRANSACTION_CHECK_TIMES = "TRANSACTION_CHECK_TIMES";
    /**
     * On a half message sent without waiting for the answer to the one before: its position in the transaction
     * (0, 1, ...). The broker may store streamed halves out of order; the commit writes them in this order.
     */
    public static final String TRANSACTION_SEQUENCE = "TRAN_SEQ";
    /** Client-generated unique message id, stable across retries and re-puts. */
    public static final String UNIQUE_CLIENT_MESSAGE_ID = "UNIQ_KEY";
    /** Retry topic a message was sent back to (set on retried messages). */
    public static final String RETRY_TOPIC = "RETRY_TOPIC";
    /** The original broker message id of a retried message. */
    public static final String ORIGIN_MESSAGE_ID = "ORIGIN_MESSAGE_ID";
    /** Per-message override of the group's max reconsume times. */
    public static final String MAX_RECONSUME_TIMES = "MAX_RECONSUME_TIMES";
    /** Epoch millis of the first failed consumption (kept across retries). */
    public static final String FIRST_FAILURE_TIME = "FIRST_FAILURE_TIME";
    /** Consume start time, set by the consumer while a message is in flight. */
    public static final String CONSUME_START_TIME = "CONSUME_START_TIME";
    /** Queue offset bounds handed to consumers with pulled messages. */
    public static final String MIN_OFFSET = "MIN_OFFSET";
    public static final String MAX_OFFSET = "MAX_OFFSET";
    /** On a dead letter of acknowledgement-based consumption: the topic the message was consumed from. */
    public static final String DLQ_ORIGIN_TOPIC = "DLQ_ORIGIN_TOPIC";
    /** On such a dead letter: the queue id the message had there. */
    public static final String DLQ_ORIGIN_QUEUE_ID = "DLQ_ORIGIN_QUEUE_ID";
    /** On such a dead letter: the queue offset the message had there. */
    public static final String DLQ_ORIGIN_QUEUE_OFFSET = "DLQ_ORIGIN_QUEUE_OFFSET";
    /** On such a dead letter: how often it was delivered before it was moved. */
    public static final String DLQ_DELIVERY_COUNT = "DLQ_DELIVERY_COUNT";
    /** On such a dead letter: why it was moved (e.g. "maxReconsumeTimes 16 exceeded"). */
    public static final String DLQ_REASON = "DLQ_REASON";
    /**
     * Types of the application properties for broker-side selectors, as {@code name:T,name:T} with T one of
     * Z (boolean), B (byte), S (short), I (int), J (long), F (float), D (double); properties not listed are
     * strings. Set by the JMS provider so that {@code price > 10} compares numbers.
     */
    public static final String PROPERTY_TYPES = "WHARF_PROPERTY_TYPES";

    private MessageProperties() {
    }
}
