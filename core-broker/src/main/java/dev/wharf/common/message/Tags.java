package dev.wharf.common.message;

/**
 * Tag hashing for the consume-queue unit. The broker filters on the 8-byte hash; the client re-checks the real
 * tag because different tags can share a hash.
 */
public final class Tags {

    /** Subscription expression meaning "every tag". */
    public static final String ALL = "*";

    private Tags() {
    }

    public static long hash(String tags) {
        return tags == null || tags.isEmpty() ? 0L : tags.hashCode();
    }
}
