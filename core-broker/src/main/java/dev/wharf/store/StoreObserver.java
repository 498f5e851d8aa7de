package dev.wharf.store;

/**
 * Told of the store's traffic as it happens, for metrics that need more than the totals of {@link StoreStats}:
 * which topic a stored or read message belongs to, and how long appends and disk forces take. Set with
 * {@link StoreStats#setObserver}. Each method runs on the thread doing the work (the dispatch thread for
 * {@link #stored}, a reader for {@link #read}, a sender for {@link #appended}, the flush thread or a group-commit
 * leader for {@link #flushed}): implementations must be quick, must not block and should not allocate.
 */
public interface StoreObserver {

    /** Observes nothing. */
    StoreObserver NONE = new StoreObserver() {
    };

    /** A record of {@code topic} became readable ({@code bytes}: the whole record). Dispatch thread, in order. */
    default void stored(String topic, int bytes) {
    }

    /** A read of {@code topic} handed out {@code messages} records totalling {@code bytes}. */
    default void read(String topic, int messages, long bytes) {
    }

    /** One append (a message or a batch) took {@code nanos}: lock, encode and copy, no disk or replica wait. */
    default void appended(long nanos) {
    }

    /** One force of the commit log to disk took {@code nanos}. */
    default void flushed(long nanos) {
    }
}
