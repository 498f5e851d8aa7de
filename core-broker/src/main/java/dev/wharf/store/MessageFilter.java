package dev.wharf.store;

import java.nio.ByteBuffer;

/**
 * Decides which messages a read returns: first cheaply on the consume-queue unit's tag code, then (for the
 * survivors) on the stored record. Called on the reading thread.
 */
public interface MessageFilter {

    /** Whether a unit with this tag code (tag hash, or delivery time for scheduled messages) may match. */
    boolean isMatchedByConsumeQueue(long tagsCode);

    /**
     * Like {@link #isMatchedByConsumeQueue(long)}, told which queue offset the unit is at, for filters that
     * also skip messages by position (e.g. ones already acknowledged); the read calls this one.
     */
    default boolean isMatchedByConsumeQueue(long queueOffset, long tagsCode) {
        return isMatchedByConsumeQueue(tagsCode);
    }

    /**
     * Whether the stored record matches (e.g. a SQL92 selector on its properties).
     *
     * @param record one whole stored record at position 0 (a read-only use of the caller's view)
     */
    boolean isMatchedByCommitLog(ByteBuffer record);

    /** A filter that lets everything through. */
    MessageFilter ALL = new MessageFilter() {
        @Override
        public boolean isMatchedByConsumeQueue(long tagsCode) {
            return true;
        }

        @Override
        public boolean isMatchedByCommitLog(ByteBuffer record) {
            return true;
        }
    };
}
