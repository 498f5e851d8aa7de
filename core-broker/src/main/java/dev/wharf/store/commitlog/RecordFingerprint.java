package dev.wharf.store.commitlog;

/**
 * Identifies one commit-log record without its bytes: where it starts, how long it is, and a CRC32 of its
 * first bytes (the header holds the body CRC, the store time and the offsets, so two different records at
 * the same offset practically never share it). Replicas compare fingerprints to tell whether their logs agree
 * at an offset. Immutable.
 *
 * @param offset commit-log offset where the record starts
 * @param size   the record's total size (for a blank end-of-file record: the rest of its file)
 * @param crc    CRC32 of the first {@link #CRC_BYTES} bytes of the record (of the 8-byte header of a blank)
 */
public record RecordFingerprint(long offset, int size, int crc) {

    /** How many leading bytes of a record the CRC covers. */
    public static final int CRC_BYTES = 4096;

    /** The offset just past the record. */
    public long end() {
        return offset + size;
    }
}
