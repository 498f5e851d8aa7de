package dev.wharf.store;

import dev.wharf.common.message.MessageRecord;
import dev.wharf.store.commitlog.QuarantinedRanges;
import dev.wharf.store.commitlog.RecordValidator;
import dev.wharf.store.file.SelectMappedBufferResult;
import dev.wharf.store.recovery.QuarantineEntry;
import dev.wharf.store.recovery.QuarantineReport;
import java.nio.ByteBuffer;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;
import java.util.zip.CRC32;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Decides whether a record may leave the store for a consumer. Never served: a record inside a quarantined
 * range. Always verified (a few header reads, no pass over the body): structure and physical offset, and for
 * queue reads that topic, queue id and queue offset are those of the consume-queue unit that led to it. With
 * {@code checkCRCOnRead} also the body CRC of queue reads, which reads every byte once more; lookups by
 * commit-log offset always check it. A record failing the check is
 * quarantined (added to the report, so it is checked and logged only once) and skipped; the reader moves past
 * its unit. Error lines are rate-limited to one per {@value #LOG_INTERVAL_SECONDS} seconds, with the count of
 * those not logged.
 *
 * <p>Thread-safe; allocation-free for an intact record.
 */
final class RecordReadCheck {

    private static final Logger log = LoggerFactory.getLogger(RecordReadCheck.class);
    static final int LOG_INTERVAL_SECONDS = 10;
    /** One CRC per reading thread, so a verified read allocates nothing. */
    private static final ThreadLocal<CRC32> CRC = ThreadLocal.withInitial(CRC32::new);

    private final boolean checkCrc;
    private final QuarantinedRanges ranges;
    private final QuarantineReport report;
    private final LongAdder skipped = new LongAdder();
    private final AtomicLong nextLogNanos = new AtomicLong(System.nanoTime());
    private final LongAdder unlogged = new LongAdder();

    RecordReadCheck(boolean checkCrc, QuarantinedRanges ranges, QuarantineReport report) {
        this.checkCrc = checkCrc;
        this.ranges = ranges;
        this.report = report;
    }

    /** Reads skipped because their record was quarantined or failed the check. */
    long skippedCount() {
        return skipped.sum();
    }

    /**
     * Whether the record a queue unit points at may be served.
     *
     * @param record the record's bytes (the caller's own view: position 0, limit its size)
     */
    boolean servable(SelectMappedBufferResult record, long phyOffset, String topic, int queueId, long queueOffset) {
        int size = record.size();
        if (ranges.overlaps(phyOffset, size)) {
            skipped.increment();
            return false;
        }
        ByteBuffer b = record.byteBuffer();
        String problem = verifyRecord(b, size, phyOffset, checkCrc);
        if (problem == null && (b.getInt(MessageRecord.QUEUE_ID_OFFSET) != queueId
                || b.getLong(MessageRecord.QUEUE_OFFSET_OFFSET) != queueOffset || !topicIs(b, topic))) {
            problem = "record does not match its consume-queue entry (" + topic + ", queue " + queueId
                    + ", queue offset " + queueOffset + ")";
        }
        if (problem == null) {
            return true;
        }
        quarantine(record, phyOffset, problem);
        return false;
    }

    /**
     * Whether a record looked up by its commit-log offset (by id, by key) may be served. These lookups also feed
     * the broker's own re-puts (scheduled delivery, retries, dead letters), which would store a damaged body
     * under a fresh CRC, so the body CRC is always checked here; they are few, so it costs nothing that shows.
     */
    boolean servable(SelectMappedBufferResult record, long phyOffset) {
        if (ranges.overlaps(phyOffset, record.size())) {
            skipped.increment();
            return false;
        }
        String problem = verifyRecord(record.byteBuffer(), record.size(), phyOffset, true);
        if (problem == null) {
            return true;
        }
        quarantine(record, phyOffset, problem);
        return false;
    }

    private static String verifyRecord(ByteBuffer b, int size, long phyOffset, boolean withCrc) {
        if (RecordValidator.check(b, 0, size, phyOffset, false) != size) {
            return "damaged record (magic code, sizes or physical offset do not check out)";
        }
        if (!withCrc) {
            return null;
        }
        int bodyLength = b.getInt(MessageRecord.BODY_LENGTH_OFFSET);
        int expected = b.getInt(MessageRecord.BODY_CRC_OFFSET);
        if (bodyLength == 0) {
            return expected == 0 ? null : "body CRC mismatch";
        }
        CRC32 crc = CRC.get();
        crc.reset();
        // the view is the caller's own: move its window over the body, then put it back
        b.limit(MessageRecord.BODY_OFFSET + bodyLength).position(MessageRecord.BODY_OFFSET);
        crc.update(b);
        b.limit(size).position(0);
        return (int) crc.getValue() == expected ? null : "body CRC mismatch";
    }

    /** Compares the stored topic with {@code topic} without decoding it (topics are ASCII). */
    private static boolean topicIs(ByteBuffer b, String topic) {
        int bodyLength = b.getInt(MessageRecord.BODY_LENGTH_OFFSET);
        int at = MessageRecord.topicLengthOffset(bodyLength);
        int length = b.get(at) & 0xFF;
        if (length != topic.length()) {
            return false;
        }
        for (int i = 0; i < length; i++) {
            if ((b.get(at + 1 + i) & 0xFF) != topic.charAt(i)) {
                return false;
            }
        }
        return true;
    }

    private void quarantine(SelectMappedBufferResult record, long phyOffset, String problem) {
        skipped.increment();
        long filePosition = phyOffset - record.mappedFile().getFileFromOffset();
        QuarantineEntry entry = QuarantineEntry.describe(record.byteBuffer(), 0, record.size(), phyOffset,
                record.size(), record.mappedFile().getFileName(), filePosition, problem, "read");
        if (!report.record(entry)) {
            return;
        }
        long now = System.nanoTime();
        long due = nextLogNanos.get();
        if (now - due >= 0 && nextLogNanos.compareAndSet(due, now + TimeUnit.SECONDS.toNanos(LOG_INTERVAL_SECONDS))) {
            long notLogged = unlogged.sumThenReset();
            log.error("Damaged record not delivered, skipped and quarantined: {} (listed in {}){}", entry.summary(),
                    report.path(), notLogged == 0 ? "" : "; " + notLogged + " more since the last such line");
        } else {
            unlogged.increment();
        }
    }
}
