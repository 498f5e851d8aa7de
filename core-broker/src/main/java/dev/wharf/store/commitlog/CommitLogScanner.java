package dev.wharf.store.commitlog;

import dev.wharf.common.message.MessageDecoder;
import dev.wharf.common.message.MessageExt;
import dev.wharf.store.file.SelectMappedBufferResult;
import java.nio.ByteBuffer;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Walks the commit log record by record from an offset, decoding each message without its body: the
 * sequential read behind start-up scans such as the scheduler's "what did I already deliver" check. Blank
 * file ends lead to the next file; quarantined ranges (damage recovery or reads found) are jumped over; any
 * other invalid record ends the walk (only a torn tail being written right now). Stateless; thread-safe.
 */
public final class CommitLogScanner {

    private static final Logger log = LoggerFactory.getLogger(CommitLogScanner.class);

    private final CommitLog commitLog;
    private final QuarantinedRanges quarantined;

    public CommitLogScanner(CommitLog commitLog) {
        this(commitLog, new QuarantinedRanges());
    }

    /** @param quarantined damaged ranges the walk jumps over */
    public CommitLogScanner(CommitLog commitLog, QuarantinedRanges quarantined) {
        this.commitLog = commitLog;
        this.quarantined = quarantined;
    }

    /**
     * Visits the records in [{@code from}, max offset at the call), {@code from} moved up to the min offset.
     *
     * @return the offset just past the last record visited
     */
    public long forEach(long from, Consumer<MessageExt> visitor) {
        long end = commitLog.getMaxOffset();
        long offset = Math.max(from, commitLog.getMinOffset());
        while (offset < end) {
            SelectMappedBufferResult data = commitLog.getData(offset);
            if (data == null) {
                if (offset % commitLog.fileSize() == 0) {
                    return offset;
                }
                offset = commitLog.rollNextFile(offset); // the last bytes of a full file
                continue;
            }
            long next;
            try {
                next = walkSlice(data, offset, end, visitor);
            } finally {
                data.release();
            }
            if (next < 0) {
                return -next - 1;
            }
            offset = next;
        }
        return offset;
    }

    /** The offset to go on from, or {@code -(stop offset) - 1} when the walk must stop. */
    private long walkSlice(SelectMappedBufferResult data, long offset, long end, Consumer<MessageExt> visitor) {
        ByteBuffer buffer = data.byteBuffer();
        int limit = data.size();
        int pos = 0;
        while (pos < limit && offset + pos < end) {
            long recordOffset = offset + pos;
            long skipTo = quarantined.endOfRangeAt(recordOffset);
            if (skipTo > recordOffset) {
                return skipTo;
            }
            int size = RecordValidator.check(buffer, pos, limit, recordOffset, false);
            if (size > 0) {
                MessageExt msg = MessageDecoder.decode(buffer.duplicate().position(pos), false, false);
                if (msg != null) {
                    visitor.accept(msg);
                }
                pos += size;
            } else if (size == RecordValidator.BLANK) {
                return commitLog.rollNextFile(recordOffset);
            } else {
                if (size == RecordValidator.INVALID) {
                    log.warn("Commit-log record at offset {} is not intact; the scan stops there", recordOffset);
                }
                return -recordOffset - 1;
            }
        }
        return offset + pos;
    }
}
