package dev.wharf.store;

/**
 * Receives consume-queue units one by one, in queue order, from {@link MessageStore#visitQueueUnits}: what a
 * reader that only needs the unit (where the message lies, its tag slot) sees without touching the commit
 * log. Called on the reading thread.
 */
@FunctionalInterface
public interface QueueUnitVisitor {

    /**
     * @param queueOffset     the unit's number in its queue
     * @param commitLogOffset where the message record starts in the commit log
     * @param size            the record's size in bytes
     * @param tagsCode        the tag slot: the tag hash, or the due time for the schedule topic
     * @return true to go on with the next unit, false to stop before it (this unit counts as not consumed)
     */
    boolean visit(long queueOffset, long commitLogOffset, int size, long tagsCode);
}
