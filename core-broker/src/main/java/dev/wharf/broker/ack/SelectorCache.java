package dev.wharf.broker.ack;

import dev.wharf.broker.filter.CompiledSubscription;
import dev.wharf.protocol.body.ConsumerModel.ExpressionType;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Compiled selectors by their text: consumers of one group may each have their own selector (JMS queue
 * consumers), so the cache is keyed by expression, not by group. Bounded: past {@link #MAX_ENTRIES} it starts
 * over (it only saves parsing). Thread-safe.
 */
final class SelectorCache {

    static final int MAX_ENTRIES = 10_000;

    private record Key(ExpressionType type, String expression) {
    }

    private final ConcurrentHashMap<Key, CompiledSubscription> cache = new ConcurrentHashMap<>();

    /**
     * The compiled expression.
     *
     * @throws dev.wharf.filter.InvalidSelectorException a bad SQL92 selector
     */
    CompiledSubscription get(ExpressionType type, String expression) {
        Key key = new Key(type, expression == null ? "" : expression);
        CompiledSubscription cached = cache.get(key);
        if (cached != null) {
            return cached;
        }
        CompiledSubscription compiled = CompiledSubscription.compile(type, key.expression());
        if (cache.size() >= MAX_ENTRIES) {
            cache.clear();
        }
        cache.put(key, compiled);
        return compiled;
    }

    /** The key a selector's scan positions are kept under. */
    static String scanKey(CompiledSubscription subscription) {
        return subscription.type().name() + ':' + subscription.expression();
    }
}
