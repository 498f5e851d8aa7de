package dev.wharf.client.consumer;

import dev.wharf.client.impl.Subscriptions;
import dev.wharf.common.message.Tags;
import dev.wharf.protocol.body.ConsumerModel.ExpressionType;
import dev.wharf.protocol.body.Heartbeat.SubscriptionData;

/**
 * Which messages of a topic a consumer wants: by tag ({@code "*"}, {@code "a || b"}), filtered by the broker on the
 * tag hash and re-checked by the client, or by an SQL92 selector over the message properties, evaluated by the
 * broker. Immutable.
 */
public final class MessageSelector {

    private final ExpressionType type;
    private final String expression;

    private MessageSelector(ExpressionType type, String expression) {
        this.type = type;
        this.expression = expression;
    }

    /**
     * @param expression {@code "*"} (or null) for every message, else tags separated by {@code "||"}
     * @throws IllegalArgumentException when a tag is empty
     */
    public static MessageSelector byTag(String expression) {
        SubscriptionData checked = Subscriptions.byTag("check", expression);
        return new MessageSelector(ExpressionType.TAG, checked.subString());
    }

    /**
     * @param sql an SQL92 boolean expression, e.g. {@code "color = 'red' AND weight > 10"}
     * @throws IllegalArgumentException naming the problem and its column when the expression is not valid
     */
    public static MessageSelector bySql(String sql) {
        SubscriptionData checked = Subscriptions.bySql("check", sql);
        return new MessageSelector(ExpressionType.SQL92, checked.subString());
    }

    /** Every message. */
    public static MessageSelector all() {
        return new MessageSelector(ExpressionType.TAG, Tags.ALL);
    }

    public ExpressionType type() {
        return type;
    }

    public String expression() {
        return expression;
    }

    SubscriptionData subscription(String topic) {
        return type == ExpressionType.SQL92 ? Subscriptions.bySql(topic, expression)
                : Subscriptions.byTag(topic, expression);
    }

    @Override
    public String toString() {
        return type + "(" + expression + ")";
    }
}
