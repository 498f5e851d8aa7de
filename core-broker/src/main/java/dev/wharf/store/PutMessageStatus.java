package dev.wharf.store;

/** Outcome of a put. */
public enum PutMessageStatus {
    /** Stored (and, with SYNC_FLUSH, on disk). */
    PUT_OK,
    /** Stored in the commit log, but the disk did not confirm within syncFlushTimeout (SYNC_FLUSH only). */
    FLUSH_DISK_TIMEOUT,
    /** No commit-log file could be created (disk full, permissions). */
    CREATE_MAPPED_FILE_FAILED,
    /** The message breaks a rule (topic name, size, properties); the error message says which. */
    MESSAGE_ILLEGAL,
    /** The encoded properties exceed 32767 bytes. */
    PROPERTIES_SIZE_EXCEEDED,
    /** The store is not started or is shutting down. */
    SERVICE_NOT_AVAILABLE,
    /**
     * The store's disk is full (above {@code diskSpaceWarningLevelRatio}, or the file system refused the blocks a
     * message needs); the message was not stored. Puts are accepted again by themselves once space returns.
     */
    DISK_FULL,
    /**
     * The store cannot take writes for another reason it names: dispatch is stuck on a record (clears by itself) or
     * a service thread failed (until a restart); the message was not stored.
     */
    STORE_NOT_WRITABLE,
    /** The page cache is too slow to accept writes (reserved; not produced by this store). */
    OS_PAGE_CACHE_BUSY,
    UNKNOWN_ERROR,
    /** Stored on this master, but not enough in-sync slaves confirmed it within slaveTimeout (SYNC_MASTER). */
    FLUSH_SLAVE_TIMEOUT,
    /** Stored on this master, but too few slaves are in sync to replicate it (SYNC_MASTER). */
    SLAVE_NOT_AVAILABLE
}
