package dev.wharf.protocol;

import java.util.Map;

/**
 * The remark of a request code Wharf does not serve: what it is, that Wharf does not serve it, and what to use
 * instead. RocketMQ's tools ({@code mqadmin}) show the remark to the operator, so it names the {@code wharf admin}
 * command or setting that does the job where there is one.
 */
public final class Unsupported {

    private static final String DEFAULT_HINT = "use `wharf admin --help` for the administration commands Wharf has";

    /** RocketMQ's request codes that operators meet most, by value: name and Wharf's way to do the same. */
    private static final Map<Integer, String[]> HINTS = Map.ofEntries(
            hint(RequestCode.UPDATE_BROKER_CONFIG, "UPDATE_BROKER_CONFIG",
                    "set the key in the broker's broker.conf and restart it (`wharf broker --config broker.conf`)"),
            hint(RequestCode.GET_BROKER_CONFIG, "GET_BROKER_CONFIG",
                    "read the broker's broker.conf; `wharf admin brokers` lists the brokers"),
            hint(18, "UPDATE_AND_CREATE_TOPIC_LIST", "create topics one by one (`wharf admin topic-create`)"),
            hint(RequestCode.PUT_KV_CONFIG, "PUT_KV_CONFIG",
                    "Wharf's NameServer keeps no key-value settings; an ordered topic needs none (queue locks keep"
                            + " the order)"),
            hint(204, "GET_PRODUCER_CONNECTION_LIST", "Wharf does not list producers"),
            hint(205, "WIPE_WRITE_PERM_OF_BROKER",
                    "stop the broker, or move a group's master with `wharf admin elect-master` in controller mode"),
            hint(207, "DELETE_SUBSCRIPTIONGROUP",
                    "a group's settings take no room; `wharf admin reset-offset` moves its offsets"),
            hint(219, "GET_KVLIST_BY_NAMESPACE", "Wharf's NameServer keeps no key-value settings"),
            hint(223, "INVOKE_BROKER_TO_GET_CONSUMER_STATUS", "use `wharf admin consumer-progress`"),
            hint(224, "GET_TOPICS_BY_CLUSTER", "use `wharf admin topics`"),
            hint(225, "UPDATE_AND_CREATE_SUBSCRIPTIONGROUP_LIST", "update groups one by one (mqadmin updateSubGroup)"),
            hint(306, "CLEAN_EXPIRED_CONSUMEQUEUE", "the broker removes expired files itself (fileReservedTime)"),
            hint(307, "GET_CONSUMER_RUNNING_INFO", "use `wharf admin consumer-progress`"),
            hint(309, "CONSUME_MESSAGE_DIRECTLY",
                    "send the message again with `wharf admin send`, dead letters with `wharf admin dlq-resend`"),
            hint(314, "CLONE_GROUP_OFFSET", "use `wharf admin reset-offset` on the new group"),
            hint(315, "VIEW_BROKER_STATS_DATA", "scrape the broker's Prometheus endpoint"),
            hint(317, "GET_BROKER_CONSUME_STATS", "use `wharf admin consumer-progress`"),
            hint(328, "GET_ALL_PRODUCER_INFO", "Wharf does not list producers"),
            hint(352, "GET_SUBSCRIPTIONGROUP_CONFIG", "mqadmin's examineSubscriptionGroupConfig reads every group's"
                    + " settings (GET_ALL_SUBSCRIPTIONGROUP_CONFIG), which Wharf serves"),
            hint(513, "UPDATE_AND_CREATE_STATIC_TOPIC", "Wharf has no static topics; `wharf admin topic-create`"
                    + " makes a topic"));

    private static Map.Entry<Integer, String[]> hint(int code, String name, String instead) {
        return Map.entry(code, new String[] {name, instead});
    }

    private Unsupported() {
    }

    /** Whether the code is one of RocketMQ's that Wharf leaves unserved on purpose, with a named alternative. */
    public static boolean hasHint(int code) {
        return HINTS.containsKey(code);
    }

    /** "request code 26 (GET_BROKER_CONFIG) is not supported by Wharf: read the broker's broker.conf; ...". */
    public static String remark(int code) {
        String[] hint = HINTS.get(code);
        String name = hint != null ? hint[0] : RequestCode.NAMES.name(code);
        return "request code " + code + " (" + name + ") is not supported by Wharf: "
                + (hint != null ? hint[1] + "; " + DEFAULT_HINT : DEFAULT_HINT);
    }
}
