package dev.wharf.store.commitlog;

import dev.wharf.common.message.MessageRecord;
import dev.wharf.store.file.MappedFile;
import dev.wharf.store.file.SelectMappedBufferResult;
import java.nio.ByteBuffer;
import java.util.zip.CRC32;

/**
 * Reads the commit log as runs of whole records for replication: a slice never ends inside a record, so a
 * replica that appends slices as they come always holds a log that ends on a record boundary (its dispatcher
 * and its recovery never see half a record). Also fingerprints records so replicas can tell whether they
 * agree at an offset. Stateless; every method is safe to call from any thread.
 */
public final class CommitLogSlices {

    private CommitLogSlices() {
    }

    /**
     * A zero-copy view of the whole records starting at {@code offset}, within the file holding it: as many as
     * fit in {@code maxBytes}, but always at least one (a record larger than {@code maxBytes} comes alone). A
     * blank end-of-file record is given as its 8-byte header only (the rest of the file is unwritten) and ends
     * the slice (the slice's next offset is then the next file's start). The caller releases the result.
     *
     * @return null when nothing is written at {@code offset} yet, or {@code offset} is not a record start
     */
    public static ReplicaSlice wholeRecords(CommitLog log, long offset, int maxBytes) {
        SelectMappedBufferResult data = log.getData(offset);
        if (data == null) {
            return null;
        }
        ByteBuffer buffer = data.byteBuffer();
        int available = data.size();
        int end = 0;
        long next = -1;
        while (end + MessageRecord.BLANK_RECORD_MIN_SIZE <= available) {
            int size = buffer.getInt(end + MessageRecord.TOTAL_SIZE_OFFSET);
            int magic = buffer.getInt(end + MessageRecord.MAGIC_CODE_OFFSET);
            if (magic == MessageRecord.BLANK_MAGIC_CODE) {
                next = offset + end + size;
                end += MessageRecord.BLANK_RECORD_MIN_SIZE;
                break;
            }
            if (magic != MessageRecord.MESSAGE_MAGIC_CODE || size < MessageRecord.BODY_OFFSET
                    || end + size > available || (end > 0 && end + size > maxBytes)) {
                break;
            }
            end += size;
        }
        if (end == 0) {
            data.release();
            return null;
        }
        data.shrinkTo(end);
        return new ReplicaSlice(data, offset, next < 0 ? offset + end : next);
    }

    /** The fingerprint of the record (message or blank) starting at {@code offset}, or null when there is none. */
    public static RecordFingerprint fingerprint(CommitLog log, long offset) {
        SelectMappedBufferResult data = log.getData(offset);
        if (data == null) {
            return null;
        }
        try {
            return fingerprint(data.byteBuffer(), 0, data.size(), offset);
        } finally {
            data.release();
        }
    }

    /**
     * The fingerprint of the last record of the log (the one ending at its max offset), or null for an empty
     * log. Walks the record headers of the last file from its start: a start-up cost of a few milliseconds.
     */
    public static RecordFingerprint last(CommitLog log) {
        long max = log.getMaxOffset();
        if (max <= log.getMinOffset()) {
            return null;
        }
        MappedFile file = log.mappedFileQueue().fileAt(max - 1);
        if (file == null) {
            return null;
        }
        long fileStart = file.getFileFromOffset();
        SelectMappedBufferResult data = log.getData(fileStart);
        if (data == null) {
            return null;
        }
        try {
            ByteBuffer buffer = data.byteBuffer();
            int limit = (int) Math.min(data.size(), max - fileStart);
            int pos = 0;
            int previous = -1;
            while (pos + MessageRecord.BLANK_RECORD_MIN_SIZE <= limit) {
                int size = buffer.getInt(pos + MessageRecord.TOTAL_SIZE_OFFSET);
                int magic = buffer.getInt(pos + MessageRecord.MAGIC_CODE_OFFSET);
                if (magic == MessageRecord.BLANK_MAGIC_CODE) {
                    previous = pos;
                    break;
                }
                if (magic != MessageRecord.MESSAGE_MAGIC_CODE || size <= 0 || pos + size > limit) {
                    break;
                }
                previous = pos;
                pos += size;
            }
            return previous < 0 ? null : fingerprint(buffer, previous, data.size(), fileStart + previous);
        } finally {
            data.release();
        }
    }

    private static RecordFingerprint fingerprint(ByteBuffer buffer, int pos, int limit, long offset) {
        if (pos + MessageRecord.BLANK_RECORD_MIN_SIZE > limit) {
            return null;
        }
        int size = buffer.getInt(pos + MessageRecord.TOTAL_SIZE_OFFSET);
        int magic = buffer.getInt(pos + MessageRecord.MAGIC_CODE_OFFSET);
        int covered;
        if (magic == MessageRecord.BLANK_MAGIC_CODE) {
            covered = MessageRecord.BLANK_RECORD_MIN_SIZE;
        } else if (magic == MessageRecord.MESSAGE_MAGIC_CODE && size >= MessageRecord.BODY_OFFSET
                && pos + size <= limit) {
            covered = Math.min(size, RecordFingerprint.CRC_BYTES);
        } else {
            return null;
        }
        CRC32 crc = new CRC32();
        ByteBuffer view = buffer.duplicate();
        view.limit(pos + covered).position(pos);
        crc.update(view);
        return new RecordFingerprint(offset, size, (int) crc.getValue());
    }
}
