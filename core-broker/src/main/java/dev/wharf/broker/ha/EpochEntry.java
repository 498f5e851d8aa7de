package dev.wharf.broker.ha;

/**
 * One master term: {@code epoch} began writing at commit-log offset {@code startOffset}. It ends where the next
 * entry starts (the last one at the log's end).
 */
public record EpochEntry(int epoch, long startOffset) {

    public EpochEntry {
        if (epoch <= 0) {
            throw new IllegalArgumentException("An epoch entry needs an epoch above 0, got " + epoch);
        }
        if (startOffset < 0) {
            throw new IllegalArgumentException("Epoch " + epoch + " cannot start at negative offset " + startOffset);
        }
    }
}
