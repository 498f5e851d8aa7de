package dev.wharf.client.impl;

import dev.wharf.common.message.Message;
import dev.wharf.common.message.Tags;
import dev.wharf.filter.InvalidSelectorException;
import dev.wharf.filter.SelectorParser;
import dev.wharf.protocol.body.ConsumerModel.ExpressionType;
import dev.wharf.protocol.body.Heartbeat.SubscriptionData;
import java.util.LinkedHashSet;
import java.util.Set;

/** Builds subscriptions (what a consumer group wants of a topic) and re-checks tags on the client. */
public final class Subscriptions {

    private Subscriptions() {
    }

    /**
     * A subscription by tag expression: {@code "*"} (or null/empty) for every message, else tags separated by
     * {@code "||"}.
     *
     * @throws IllegalArgumentException when the expression has an empty tag
     */
    public static SubscriptionData byTag(String topic, String expression) {
        String expr = expression == null || expression.isBlank() ? Tags.ALL : expression.trim();
        Set<String> tags = new LinkedHashSet<>();
        Set<Integer> codes = new LinkedHashSet<>();
        if (!Tags.ALL.equals(expr)) {
            for (String part : expr.split("\\|\\|", -1)) {
                String tag = part.trim();
                if (tag.isEmpty()) {
                    throw new IllegalArgumentException("The tag expression \"" + expression + "\" has an empty tag; "
                            + "write tags separated by \"||\", e.g. \"a || b\", or \"*\" for all messages.");
                }
                if (Tags.ALL.equals(tag)) {
                    return byTag(topic, Tags.ALL);
                }
                tags.add(tag);
                codes.add((int) Tags.hash(tag));
            }
        }
        return new SubscriptionData(topic, expr, ExpressionType.TAG, tags, codes, System.currentTimeMillis());
    }

    /**
     * A subscription by SQL92 selector, checked here so that a bad one fails before it reaches a broker.
     *
     * @throws IllegalArgumentException with the parser's message (which names the column)
     */
    public static SubscriptionData bySql(String topic, String selector) {
        if (selector == null || selector.isBlank()) {
            throw new IllegalArgumentException("The SQL92 selector is empty; give an expression such as "
                    + "\"color = 'red' AND weight > 10\", or subscribe by tag \"*\" for all messages.");
        }
        checkSql(selector);
        return new SubscriptionData(topic, selector.trim(), ExpressionType.SQL92, Set.of(), Set.of(),
                System.currentTimeMillis());
    }

    /** The same subscription for another topic (the retry topic of a group). */
    public static SubscriptionData forTopic(SubscriptionData data, String topic) {
        return new SubscriptionData(topic, data.subString(), data.expressionType(), data.tagsSet(), data.codeSet(),
                data.subVersion());
    }

    public static void checkSql(String selector) {
        try {
            SelectorParser.parse(selector);
        } catch (InvalidSelectorException e) {
            throw new IllegalArgumentException("Invalid SQL92 selector \"" + selector + "\": " + e.getMessage(), e);
        }
    }

    /**
     * Whether the message's tag is one the subscription names. The broker filters by tag hash; this catches
     * messages whose different tag has the same hash. SQL92 subscriptions are evaluated by the broker only.
     */
    public static boolean tagMatches(SubscriptionData data, Message msg) {
        if (data == null || data.expressionType() != ExpressionType.TAG || data.tagsSet() == null
                || data.tagsSet().isEmpty()) {
            return true;
        }
        String tag = msg.getTags();
        return tag != null && data.tagsSet().contains(tag);
    }
}
