package dev.wharf.store;

/** When a put counts as stored. */
public enum FlushDiskType {
    /** After the write into the page cache; a background thread forces to disk (fast; a power loss may lose the last writes). */
    ASYNC_FLUSH,
    /** After the bytes are forced to disk; concurrent puts share one force (group commit). */
    SYNC_FLUSH
}
