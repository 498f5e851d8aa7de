package dev.wharf.protocol;

/**
 * Request codes, with RocketMQ's values so that its clients and tools speak the same numbers.
 * Only the codes Wharf serves or sends are listed.
 */
public final class RequestCode {

    public static final int SEND_MESSAGE = 10;
    public static final int PULL_MESSAGE = 11;
    public static final int QUERY_MESSAGE = 12;
    public static final int QUERY_BROKER_OFFSET = 13;
    public static final int QUERY_CONSUMER_OFFSET = 14;
    public static final int UPDATE_CONSUMER_OFFSET = 15;
    public static final int UPDATE_AND_CREATE_TOPIC = 17;
    /** RocketMQ's tools read a broker's settings with it; Wharf refuses it with the command to use instead. */
    public static final int UPDATE_BROKER_CONFIG = 25;
    /** See {@link #UPDATE_BROKER_CONFIG}. */
    public static final int GET_BROKER_CONFIG = 26;
    public static final int GET_ALL_TOPIC_CONFIG = 21;
    /** A broker's runtime figures: commit-log bounds, time of the last stored message, role (admin, lag). */
    public static final int GET_BROKER_RUNTIME_INFO = 28;
    public static final int SEARCH_OFFSET_BY_TIMESTAMP = 29;
    public static final int GET_MAX_OFFSET = 30;
    public static final int GET_MIN_OFFSET = 31;
    public static final int GET_EARLIEST_MSG_STORETIME = 32;
    public static final int VIEW_MESSAGE_BY_ID = 33;
    public static final int HEART_BEAT = 34;
    public static final int UNREGISTER_CLIENT = 35;
    public static final int CONSUMER_SEND_MSG_BACK = 36;
    public static final int END_TRANSACTION = 37;
    public static final int GET_CONSUMER_LIST_BY_GROUP = 38;
    /** Broker to producer, over the producer's own connection. */
    public static final int CHECK_TRANSACTION_STATE = 39;
    /** Broker to consumer, over the consumer's own connection. */
    public static final int NOTIFY_CONSUMER_IDS_CHANGED = 40;
    public static final int LOCK_BATCH_MQ = 41;
    public static final int UNLOCK_BATCH_MQ = 42;
    public static final int GET_ALL_CONSUMER_OFFSET = 43;
    public static final int GET_ALL_DELAY_OFFSET = 45;
    /** A consumer asks whether the broker can serve its subscription (RocketMQ clients send it for SQL92). */
    public static final int CHECK_CLIENT_CONFIG = 46;
    /** NameServer key-value settings (RocketMQ's order configuration); Wharf's NameServer keeps none. */
    public static final int PUT_KV_CONFIG = 100;
    public static final int GET_KV_CONFIG = 101;
    public static final int DELETE_KV_CONFIG = 102;
    public static final int REGISTER_BROKER = 103;
    public static final int UNREGISTER_BROKER = 104;
    public static final int GET_ROUTEINFO_BY_TOPIC = 105;
    public static final int GET_BROKER_CLUSTER_INFO = 106;
    /** Creates or changes a consumer group's settings (body: the group's settings as JSON). */
    public static final int UPDATE_AND_CREATE_SUBSCRIPTIONGROUP = 200;
    /** Every subscription group's configuration (a slave copies them from its master). */
    public static final int GET_ALL_SUBSCRIPTIONGROUP_CONFIG = 201;
    public static final int GET_TOPIC_STATS_INFO = 202;
    public static final int GET_CONSUMER_CONNECTION_LIST = 203;
    public static final int GET_ALL_TOPIC_LIST_FROM_NAMESERVER = 206;
    public static final int GET_CONSUME_STATS = 208;
    public static final int DELETE_TOPIC_IN_BROKER = 215;
    public static final int DELETE_TOPIC_IN_NAMESRV = 216;
    public static final int INVOKE_BROKER_TO_RESET_OFFSET = 222;
    /** Broker to a RocketMQ consumer, over its own connection: restart the topic's queues from these offsets. */
    public static final int RESET_CONSUMER_CLIENT_OFFSET = 220;
    /** The groups that consume a topic (with offsets on it or online and subscribed). */
    public static final int QUERY_TOPIC_CONSUME_BY_WHO = 300;
    public static final int SEND_MESSAGE_V2 = 310;
    public static final int SEND_BATCH_MESSAGE = 320;
    /** One topic's configuration, in RocketMQ's shape (its tools ask before showing topic and group statistics). */
    public static final int GET_TOPIC_CONFIG = 351;
    /** RocketMQ 5.x's DefaultLitePullConsumer pulls with this code; header and answer are PULL_MESSAGE's. */
    public static final int LITE_PULL_MESSAGE = 361;
    public static final int POP_MESSAGE = 200050;
    public static final int ACK_MESSAGE = 200051;
    public static final int CHANGE_MESSAGE_INVISIBLETIME = 200053;
    /** Wharf's own: the messages still on a queue for a group, without changing anything (browsing). */
    public static final int PEEK_MESSAGE = 200100;
    /** Wharf's own: creates a group's acknowledgement state for a topic (anchors where it starts). */
    public static final int CREATE_ACK_GROUP = 200101;
    /** Wharf's own: deletes a group's acknowledgement state for a topic (unsubscribe). */
    public static final int DELETE_ACK_GROUP = 200102;
    /** Wharf's own: per-queue acknowledgement statistics of a group. */
    public static final int GET_ACK_STATS = 200103;
    /** Wharf's own: the groups (with their topics) that have acknowledgement state, by group-name prefix. */
    public static final int LIST_ACK_GROUPS = 200104;
    /** Wharf's own: claims a name for the calling connection alone (a JMS client id, a durable subscription). */
    public static final int CLAIM_EXCLUSIVE = 200105;
    /** Wharf's own: gives a claimed name back. */
    public static final int RELEASE_EXCLUSIVE = 200106;
    /**
     * Wharf's own: one of the broker's persisted progress documents by name (delay/timer progress, acknowledgement
     * state, transaction check progress), as JSON; a slave copies them from its master.
     */
    public static final int GET_PROGRESS_DOCUMENT = 200107;
    /** Wharf's own: a broker's version, disk use and thresholds, pending scheduled and half messages (console). */
    public static final int GET_BROKER_STATUS = 200108;
    /**
     * Wharf's own: the first step of a connection's authentication (with ACL on): the server answers with a fresh
     * nonce for this connection. Served by the server's request guard, not by a processor.
     */
    public static final int AUTH_CHALLENGE = 200109;
    /**
     * Wharf's own: the second step: the client's request, signed with its user's key, names the server's nonce and
     * its own; on success the connection is bound to the user and the server proves it holds the key too.
     */
    public static final int AUTH_SESSION = 200110;

    // Controller (automatic failover). RocketMQ's values where it has the request; Wharf's own in 1020-1099.
    /** Master to controller: proposes a new sync-state set (header: master id and epoch; body: set and epoch). */
    public static final int CONTROLLER_ALTER_SYNC_STATE_SET = 1001;
    /** Broker, admin or the controller itself: elect a master for a broker name (optionally a designated id). */
    public static final int CONTROLLER_ELECT_MASTER = 1002;
    /** Broker to controller: registers a replica (claims or confirms its broker id, reports its address). */
    public static final int CONTROLLER_REGISTER_BROKER = 1003;
    /** Master, epochs, sync-state set and replicas of one broker name (or of all, for admin). */
    public static final int CONTROLLER_GET_REPLICA_INFO = 1004;
    /** The controller group: this node, its role, the leader and its address. Any node answers. */
    public static final int CONTROLLER_GET_METADATA_INFO = 1005;
    /** Controller to broker, one-way: the master of the broker's group changed. */
    public static final int NOTIFY_BROKER_ROLE_CHANGED = 1008;
    /**
     * Wharf's own value (RocketMQ sends its BROKER_HEARTBEAT, 904, here): a broker's liveness, epoch and
     * offsets, sent to the controller leader.
     */
    public static final int CONTROLLER_BROKER_HEARTBEAT = 1020;

    /** The constants' names, for log lines and errors: {@code RequestCode.NAMES.describe(code)}. */
    public static final CodeNames NAMES = CodeNames.of(RequestCode.class);

    private RequestCode() {
    }
}
