package dev.wharf.store.commitlog;

import dev.wharf.common.message.MessageRecord;
import dev.wharf.store.file.MappedFile;
import java.nio.ByteBuffer;

/**
 * Writes one encoded batch into a commit-log file at its write position: closes the file with a blank record when
 * the batch (plus room for a final blank) does not fit, otherwise gives each record its queue offset, commit-log
 * offset and store time and writes the batch in one write. A failed write gives its queue offsets back. Used only
 * under the commit log's put lock, by one thread at a time.
 */
final class RecordAppender {

    private final int fileSize;
    private final QueueOffsetTable queueOffsets;
    /** The next offset of a queue, looked up where the table has not seen the queue yet. */
    private final NextQueueOffset nextQueueOffset;
    private final ByteBuffer blank = ByteBuffer.allocate(MessageRecord.BLANK_RECORD_MIN_SIZE);
    private RecordEncoder encoder;
    private long storeTimestamp;
    private AppendStatus status;
    private long wroteOffset;
    private long firstQueueOffset;

    /** A queue's next offset (an int queue id, so the hot path boxes nothing). */
    @FunctionalInterface
    interface NextQueueOffset {
        long next(String topic, int queueId);
    }

    RecordAppender(int fileSize, QueueOffsetTable queueOffsets, NextQueueOffset nextQueueOffset) {
        this.fileSize = fileSize;
        this.queueOffsets = queueOffsets;
        this.nextQueueOffset = nextQueueOffset;
    }

    void prepare(RecordEncoder encoder, long storeTimestamp) {
        this.encoder = encoder;
        this.storeTimestamp = storeTimestamp;
        this.status = AppendStatus.UNKNOWN_ERROR;
    }

    void release() {
        this.encoder = null;
    }

    /** PUT_OK, END_OF_FILE (the caller goes on in the next file) or UNKNOWN_ERROR (nothing written). */
    AppendStatus status() {
        return status;
    }

    long wroteOffset() {
        return wroteOffset;
    }

    long firstQueueOffset() {
        return firstQueueOffset;
    }

    /** Appends the prepared batch; the caller has reserved the blocks it needs. */
    void appendTo(MappedFile file) {
        int position = file.getWrotePosition();
        int room = fileSize - position;
        int size = encoder.encodedSize();
        if (size + MessageRecord.BLANK_RECORD_MIN_SIZE > room) {
            blank.clear();
            if (room >= MessageRecord.BLANK_RECORD_MIN_SIZE) {
                blank.putInt(room).putInt(MessageRecord.BLANK_MAGIC_CODE);
            }
            if (file.appendLast(blank.flip())) {
                status = AppendStatus.END_OF_FILE;
            }
            return;
        }
        long base = file.getFileFromOffset() + position;
        wroteOffset = base;
        for (int i = 0, n = encoder.count(); i < n; i++) {
            long queueOffset = 0;
            if (encoder.consumesQueueOffset(i)) {
                queueOffset = nextQueueOffset.next(encoder.topic(i), encoder.queueId(i));
                queueOffsets.set(encoder.topic(i), encoder.queueId(i), queueOffset + 1);
            }
            if (i == 0) {
                firstQueueOffset = queueOffset;
            }
            encoder.patch(i, queueOffset, base + encoder.recordStart(i), storeTimestamp);
        }
        ByteBuffer data = encoder.rawBuffer().duplicate();
        data.flip();
        boolean appended = false;
        try {
            appended = file.append(data);
        } finally {
            if (!appended) {
                giveBackQueueOffsets();
            }
        }
        if (appended) {
            status = AppendStatus.PUT_OK;
        }
    }

    /**
     * A failed write took no queue offsets: set each queue back to the first offset this batch gave it (the log stays
     * usable after an interrupted write, and a consume queue must not get a hole).
     */
    private void giveBackQueueOffsets() {
        for (int i = encoder.count() - 1; i >= 0; i--) {
            if (encoder.consumesQueueOffset(i)) {
                long given = encoder.rawBuffer().getLong(encoder.recordStart(i) + MessageRecord.QUEUE_OFFSET_OFFSET);
                queueOffsets.set(encoder.topic(i), encoder.queueId(i), given);
            }
        }
    }
}
