package dev.wharf.store.index;

/**
 * The key hash of an index entry: the non-negative {@link String#hashCode()} of {@code topic + "#" + key}, so
 * the same key in two topics lands on different hashes (and, on a collision, different topics are told apart by
 * the caller's re-check). Computed without building the string, since every message key goes through here.
 */
final class IndexKey {

    static final char SEPARATOR = '#';

    private IndexKey() {
    }

    /** Hash of {@code topic#key}. */
    static int hash(String topic, String key) {
        return hash(topic, key, 0, key.length());
    }

    /** Hash of {@code topic#} followed by {@code keys[from, to)}. */
    static int hash(String topic, CharSequence keys, int from, int to) {
        int h = topic.hashCode();
        h = 31 * h + SEPARATOR;
        for (int i = from; i < to; i++) {
            h = 31 * h + keys.charAt(i);
        }
        // Math.abs(Integer.MIN_VALUE) is negative; 0 keeps the slot arithmetic non-negative
        return h == Integer.MIN_VALUE ? 0 : Math.abs(h);
    }
}
