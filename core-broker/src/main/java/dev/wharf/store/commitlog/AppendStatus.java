package dev.wharf.store.commitlog;

/** Outcome of an append to the commit log (a status code, not an exception, on the hot path). */
public enum AppendStatus {
    /** Written into the mapped buffer (not necessarily on disk yet). */
    PUT_OK,
    /** The file had no room: a blank record closed it and the caller retries in the next file (internal). */
    END_OF_FILE,
    /** The record (or batch) exceeds the configured maximum message size or the file size. */
    MESSAGE_SIZE_EXCEEDED,
    /** The encoded properties exceed what the two-byte length field can hold. */
    PROPERTIES_SIZE_EXCEEDED,
    /** The message breaks a rule of the record format (topic name, missing fields). */
    MESSAGE_ILLEGAL,
    /** No file could be created to write into (disk full, permissions). */
    CREATE_MAPPED_FILE_FAILED,
    /** The commit log is not accepting writes (not started or shutting down). */
    SERVICE_NOT_AVAILABLE,
    /** The file system could not give the blocks the record needs; nothing was written. */
    DISK_FULL,
    /** The store refuses writes for a reason its health names (dispatch stuck, a failed service). */
    STORE_NOT_WRITABLE,
    /** Writing through the mapping faulted (an I/O error); nothing was acknowledged and the store is failed. */
    IO_FAULT,
    UNKNOWN_ERROR
}
