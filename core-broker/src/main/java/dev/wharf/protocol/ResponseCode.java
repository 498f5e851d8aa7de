package dev.wharf.protocol;

/**
 * Response codes, with RocketMQ's values, plus {@link #REQUEST_HEADER_INVALID} and {@link #EXCLUSIVE_CLAIM_HELD}
 * of Wharf's own.
 */
public final class ResponseCode {

    public static final int SUCCESS = 0;
    public static final int SYSTEM_ERROR = 1;
    public static final int SYSTEM_BUSY = 2;
    public static final int REQUEST_CODE_NOT_SUPPORTED = 3;
    public static final int TRANSACTION_FAILED = 4;
    public static final int FLUSH_DISK_TIMEOUT = 10;
    public static final int SLAVE_NOT_AVAILABLE = 11;
    public static final int FLUSH_SLAVE_TIMEOUT = 12;
    public static final int MESSAGE_ILLEGAL = 13;
    public static final int SERVICE_NOT_AVAILABLE = 14;
    public static final int VERSION_NOT_SUPPORTED = 15;
    public static final int NO_PERMISSION = 16;
    public static final int TOPIC_NOT_EXIST = 17;
    public static final int TOPIC_EXIST_ALREADY = 18;
    public static final int PULL_NOT_FOUND = 19;
    public static final int PULL_RETRY_IMMEDIATELY = 20;
    public static final int PULL_OFFSET_MOVED = 21;
    public static final int QUERY_NOT_FOUND = 22;
    public static final int SUBSCRIPTION_PARSE_FAILED = 23;
    public static final int SUBSCRIPTION_NOT_EXIST = 24;
    public static final int SUBSCRIPTION_NOT_LATEST = 25;
    public static final int SUBSCRIPTION_GROUP_NOT_EXIST = 26;
    public static final int TRANSACTION_SHOULD_COMMIT = 200;
    public static final int TRANSACTION_SHOULD_ROLLBACK = 201;
    public static final int TRANSACTION_STATE_UNKNOW = 202;
    public static final int TRANSACTION_STATE_GROUP_WRONG = 203;
    public static final int CONSUMER_NOT_ONLINE = 206;
    public static final int CONSUME_MSG_TIMEOUT = 207;
    public static final int NO_MESSAGE = 208;
    public static final int POLLING_FULL = 209;
    public static final int POLLING_TIMEOUT = 210;

    /**
     * Wharf's own: the request's header is missing a required field, holds a malformed value, or cannot be
     * read at all; the remark names the field. Retrying the same request cannot succeed. The value lies
     * outside every range RocketMQ assigns (0-26, 200-215, 501, 604, 1500, 2000-2016, negatives), and a
     * RocketMQ client reports an unknown code with its remark, so the message still reaches the user.
     */
    public static final int REQUEST_HEADER_INVALID = 1400;
    /** Wharf's own: the name asked for with CLAIM_EXCLUSIVE is held by another connection. */
    public static final int EXCLUSIVE_CLAIM_HELD = 1401;
    /**
     * Wharf's own: the request carried no credentials, a wrong signature or an unknown user, or was signed outside
     * the server's replay window; the remark says which. A refusal of rights is RocketMQ's {@link #NO_PERMISSION}.
     */
    public static final int AUTHENTICATION_FAILED = 1410;

    // Controller answers, with RocketMQ's values (2000-2016).
    /** The request's master epoch is not the current one: another election happened meanwhile. */
    public static final int CONTROLLER_FENCED_MASTER_EPOCH = 2000;
    /** The request's sync-state-set epoch is not the current one: the set changed meanwhile. */
    public static final int CONTROLLER_FENCED_SYNC_STATE_SET_EPOCH = 2001;
    /** The sender is not the master of its broker name, or the new set leaves the master out. */
    public static final int CONTROLLER_INVALID_MASTER = 2002;
    /** The new sync-state set names a replica that is not registered or not alive. */
    public static final int CONTROLLER_INVALID_REPLICAS = 2003;
    /** The request is malformed or names something the controller does not know (the remark says what). */
    public static final int CONTROLLER_INVALID_REQUEST = 2005;
    /** The broker asked for is not alive (no heartbeat within its timeout). */
    public static final int CONTROLLER_BROKER_NOT_ALIVE = 2006;
    /** This controller node is not the leader; the remark and the leaderAddress field name the leader if known. */
    public static final int CONTROLLER_NOT_LEADER = 2007;
    /** The broker is not registered (or registered at another address): register again, then retry. */
    public static final int CONTROLLER_BROKER_NEED_TO_BE_REGISTERED = 2010;
    /** The election kept the current master: it is alive. */
    public static final int CONTROLLER_MASTER_STILL_EXIST = 2011;
    /** No replica may become master (none in sync and alive, or a designated one is not in sync). */
    public static final int CONTROLLER_ELECT_MASTER_FAILED = 2012;

    /** The constants' names, for log lines and errors: {@code ResponseCode.NAMES.describe(code)}. */
    public static final CodeNames NAMES = CodeNames.of(ResponseCode.class);

    private ResponseCode() {
    }
}
