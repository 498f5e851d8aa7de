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
    UNKNOWN_ERROR
}
