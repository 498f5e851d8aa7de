package dev.wharf.client.consumer.offset;

/** Where {@link OffsetStore#readOffset} looks. */
public enum ReadOffsetType {
    /** The in-memory value only. */
    READ_FROM_MEMORY,
    /** The broker (or the file), refreshing the in-memory value. */
    READ_FROM_STORE,
    /** Memory when known, else the store. */
    MEMORY_FIRST_THEN_STORE
}
