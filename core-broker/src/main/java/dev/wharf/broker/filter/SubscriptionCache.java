package dev.wharf.broker.filter;

import dev.wharf.protocol.body.ConsumerModel.ExpressionType;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Compiled subscriptions per (group, topic), so a selector is parsed once and not on every pull. A group
 * that changes its expression replaces its entry. Thread-safe.
 */
public final class SubscriptionCache {

    /** Beyond this many entries the cache starts over (it only saves parsing). */
    static final int MAX_ENTRIES = 100_000;

    private record Key(String group, String topic) {
    }

    private final ConcurrentHashMap<Key, CompiledSubscription> cache = new ConcurrentHashMap<>();

    /**
     * The compiled form of the group's expression for the topic.
     *
     * @throws dev.wharf.filter.InvalidSelectorException a bad SQL92 selector
     */
    public CompiledSubscription get(String group, String topic, ExpressionType type, String expression) {
        Key key = new Key(group, topic);
        CompiledSubscription cached = cache.get(key);
        if (cached != null && cached.type() == type && sameExpression(cached, type, expression)) {
            return cached;
        }
        CompiledSubscription compiled = CompiledSubscription.compile(type, expression);
        if (cache.size() >= MAX_ENTRIES) {
            cache.clear();
        }
        cache.put(key, compiled);
        return compiled;
    }

    private static boolean sameExpression(CompiledSubscription cached, ExpressionType type, String expression) {
        if (type == ExpressionType.TAG) {
            String expr = expression == null ? "" : expression.trim();
            return cached.expression().equals(expr) || expr.isEmpty() && cached.expression().equals("*");
        }
        return Objects.equals(cached.expression(), expression == null ? "" : expression);
    }

    /** Forgets a deleted topic's entries. */
    public void removeTopic(String topic) {
        cache.keySet().removeIf(k -> k.topic().equals(topic));
    }

    int size() {
        return cache.size();
    }
}
