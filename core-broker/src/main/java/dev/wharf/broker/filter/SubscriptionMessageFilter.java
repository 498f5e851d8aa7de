package dev.wharf.broker.filter;

import dev.wharf.filter.Selector;
import dev.wharf.store.MessageFilter;
import java.nio.ByteBuffer;

/**
 * The store-side filter of one pull: tag hashes on the consume-queue unit, then the SQL92 selector (if any)
 * on the stored record. Used by the one thread serving the pull; not thread-safe.
 */
public final class SubscriptionMessageFilter implements MessageFilter {

    private final CompiledSubscription subscription;
    private final Selector selector;
    private final RecordPropertySource source = new RecordPropertySource();

    public SubscriptionMessageFilter(CompiledSubscription subscription) {
        this.subscription = subscription;
        this.selector = subscription.selector();
    }

    public CompiledSubscription subscription() {
        return subscription;
    }

    @Override
    public boolean isMatchedByConsumeQueue(long tagsCode) {
        return subscription.matchesTagsCode(tagsCode);
    }

    @Override
    public boolean isMatchedByCommitLog(ByteBuffer record) {
        return selector == null || selector.matches(source.reset(record));
    }
}
