package dev.wharf.store;

import dev.wharf.common.message.MessageDecoder;
import dev.wharf.common.message.MessageExt;
import dev.wharf.common.message.MessageProperties;
import dev.wharf.common.message.MessageRecord;
import dev.wharf.store.commitlog.CommitLog;
import dev.wharf.store.file.SelectMappedBufferResult;
import dev.wharf.store.index.IndexService;
import dev.wharf.store.index.QueryOffsetResult;
import dev.wharf.store.queue.ConsumeQueue;
import dev.wharf.store.queue.ConsumeQueueStore;
import dev.wharf.store.queue.ConsumeQueueUnit;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.function.LongSupplier;

/**
 * The read paths: batches from a queue (consume-queue units, then zero-copy views of the records), offsets by
 * queue position and time, and queries by key. Never takes the put lock. Thread-safe.
 *
 * <p>Every path ignores what points at or past the dispatcher's confirmed offset: the units of an atomic batch
 * whose last record is not dispatched yet. So a batch is never seen in part.
 */
final class QueueMessageReader {

    private static final int UNIT_SIZE = ConsumeQueueUnit.SIZE;
    /** Units examined per read at most when a filter skips messages, so one read stays short. */
    private static final int MAX_FILTERED_UNITS = 800;
    private static final int STORE_TIMESTAMP_END = MessageRecord.STORE_TIMESTAMP_OFFSET + Long.BYTES;

    private final CommitLog commitLog;
    private final ConsumeQueueStore queues;
    private final IndexService index;
    private final MessageStoreConfig config;
    private final StoreStats stats;
    private final LongSupplier confirmedOffset;
    private final RecordReadCheck check;

    /**
     * @param confirmedOffset the dispatcher's confirmed offset: units at or past it are not served yet
     * @param check           decides whether a record may leave the store
     */
    QueueMessageReader(CommitLog commitLog, ConsumeQueueStore queues, IndexService index, MessageStoreConfig config,
            StoreStats stats, LongSupplier confirmedOffset, RecordReadCheck check) {
        this.check = check;
        this.commitLog = commitLog;
        this.queues = queues;
        this.index = index;
        this.config = config;
        this.stats = stats;
        this.confirmedOffset = confirmedOffset;
    }

    /** The end of a queue as readers see it (without the units of an unconfirmed batch); 0 for an unknown queue. */
    long getMaxOffsetInQueue(String topic, int queueId) {
        ConsumeQueue cq = queues.find(topic, queueId);
        return cq == null ? 0 : cq.getVisibleMaxOffset(confirmedOffset.getAsLong());
    }

    GetMessageResult getMessage(String topic, int queueId, long offset, int maxMsgNums, int maxTotalBytes,
            MessageFilter filter) {
        ConsumeQueue cq = queues.find(topic, queueId);
        if (cq == null) {
            return empty(GetMessageStatus.NO_MATCHED_LOGIC_QUEUE, 0, 0, 0);
        }
        // read first: every unit below it points at a dispatched record of a complete batch
        long confirmed = confirmedOffset.getAsLong();
        long min = cq.getMinOffsetInQueue();
        long max = cq.getVisibleMaxOffset(confirmed);
        if (max == 0) {
            return empty(GetMessageStatus.NO_MESSAGE_IN_QUEUE, 0, min, max);
        }
        if (offset < min) {
            return empty(GetMessageStatus.OFFSET_TOO_SMALL, min, min, max);
        }
        if (offset == max) {
            return empty(GetMessageStatus.OFFSET_OVERFLOW_ONE, offset, min, max);
        }
        if (offset > max) {
            return empty(GetMessageStatus.OFFSET_OVERFLOW_BADLY, max, min, max);
        }
        SelectMappedBufferResult units = cq.getIndexBuffer(offset);
        if (units == null) {
            long unitsPerFile = config.getMappedFileSizeConsumeQueue() / UNIT_SIZE;
            return empty(GetMessageStatus.OFFSET_FOUND_NULL, offset + unitsPerFile - offset % unitsPerFile, min, max);
        }
        MessageFilter f = filter == null ? MessageFilter.ALL : filter;
        int maxCount = Math.min(maxMsgNums <= 0 ? Integer.MAX_VALUE : maxMsgNums,
                config.getMaxTransferCountOnMessageInMemory());
        int maxBytes = Math.min(maxTotalBytes <= 0 ? Integer.MAX_VALUE : maxTotalBytes,
                config.getMaxTransferBytesOnMessageInMemory());
        long minPhy = commitLog.getMinOffset();
        List<SelectMappedBufferResult> found = new ArrayList<>(Math.min(maxCount, 32));
        int bytes = 0;
        int removed = 0;
        int i = 0;
        try {
            ByteBuffer b = units.byteBuffer();
            int available = units.size() / UNIT_SIZE;
            int scanLimit = Math.max(maxCount, MAX_FILTERED_UNITS);
            for (; i < available && i < scanLimit && found.size() < maxCount; i++) {
                int at = i * UNIT_SIZE;
                long phy = ConsumeQueueUnit.phyOffset(b, at);
                int size = ConsumeQueueUnit.msgSize(b, at);
                long tagsCode = ConsumeQueueUnit.tagsCode(b, at);
                if (phy >= confirmed) {
                    break; // the rest of the queue belongs to a batch not confirmed yet
                }
                if (!ConsumeQueueUnit.isMessage(phy, size)) {
                    continue; // a blank unit fills a gap in the queue's numbering
                }
                if (!found.isEmpty() && bytes + size > maxBytes) {
                    break;
                }
                if (phy < minPhy) {
                    removed++;
                    continue;
                }
                if (!f.isMatchedByConsumeQueue(offset + i, tagsCode)) {
                    continue;
                }
                SelectMappedBufferResult record = commitLog.getMessage(phy, size);
                if (record == null) {
                    removed++;
                    continue;
                }
                if (!check.servable(record, phy, topic, queueId, offset + i)) {
                    record.release();
                    continue; // damaged: the consumer moves past its unit
                }
                if (f != MessageFilter.ALL && !f.isMatchedByCommitLog(record.byteBuffer().asReadOnlyBuffer())) {
                    record.release();
                    continue;
                }
                found.add(record);
                bytes += size;
            }
        } finally {
            units.release();
        }
        long next = offset + i;
        GetMessageStatus status;
        if (!found.isEmpty()) {
            status = GetMessageStatus.FOUND;
        } else if (removed == i && i > 0) {
            // everything read so far was deleted by clean-up: the first valid offset is past it
            status = GetMessageStatus.OFFSET_TOO_SMALL;
        } else {
            status = GetMessageStatus.NO_MATCHED_MESSAGE;
        }
        stats.recordGet(topic, found.size(), bytes);
        return new GetMessageResult(status, next, min, max, found);
    }

    long visitQueueUnits(String topic, int queueId, long fromOffset, int maxUnits, QueueUnitVisitor visitor) {
        long confirmed = confirmedOffset.getAsLong();
        ConsumeQueue cq = queues.find(topic, queueId);
        if (cq == null) {
            return fromOffset;
        }
        long offset = Math.max(fromOffset, cq.getMinOffsetInQueue());
        if (maxUnits <= 0 || offset >= cq.getMaxOffsetInQueue()) {
            return offset;
        }
        SelectMappedBufferResult units = cq.getIndexBuffer(offset);
        if (units == null) {
            return offset;
        }
        try {
            ByteBuffer b = units.byteBuffer();
            int count = Math.min(units.size() / UNIT_SIZE, maxUnits);
            for (int i = 0; i < count; i++) {
                int at = i * UNIT_SIZE;
                long phy = ConsumeQueueUnit.phyOffset(b, at);
                int size = ConsumeQueueUnit.msgSize(b, at);
                if (phy >= confirmed) {
                    return offset + i; // an atomic batch not dispatched whole yet: visit it later
                }
                if (ConsumeQueueUnit.isMessage(phy, size)
                        && !visitor.visit(offset + i, phy, size, ConsumeQueueUnit.tagsCode(b, at))) {
                    return offset + i;
                }
            }
            return offset + count;
        } finally {
            units.release();
        }
    }

    private static GetMessageResult empty(GetMessageStatus status, long next, long min, long max) {
        return new GetMessageResult(status, next, min, max, List.of());
    }

    long getOffsetInQueueByTime(String topic, int queueId, long timestamp) {
        ConsumeQueue cq = queues.find(topic, queueId);
        if (cq == null) {
            return 0;
        }
        long found = cq.getOffsetInQueueByTime(timestamp, phy -> commitLog.pickupStoreTimestamp(phy, STORE_TIMESTAMP_END));
        return Math.min(found, cq.getVisibleMaxOffset(confirmedOffset.getAsLong()));
    }

    long getCommitLogOffsetInQueue(String topic, int queueId, long queueOffset) {
        long[] unit = readUnit(topic, queueId, queueOffset);
        return unit == null ? -1 : unit[0];
    }

    long getMessageStoreTimestamp(String topic, int queueId, long queueOffset) {
        long[] unit = readUnit(topic, queueId, queueOffset);
        return unit == null ? -1 : commitLog.pickupStoreTimestamp(unit[0], (int) unit[1]);
    }

    /** {commit-log offset, size} of a queue's message unit, or null when there is no message there. */
    private long[] readUnit(String topic, int queueId, long queueOffset) {
        long confirmed = confirmedOffset.getAsLong();
        ConsumeQueue cq = queues.find(topic, queueId);
        if (cq == null || queueOffset >= cq.getMaxOffsetInQueue()) {
            return null;
        }
        SelectMappedBufferResult unit = cq.getIndexBuffer(queueOffset);
        if (unit == null) {
            return null;
        }
        try {
            if (unit.size() < UNIT_SIZE) {
                return null;
            }
            long phy = ConsumeQueueUnit.phyOffset(unit.byteBuffer(), 0);
            int size = ConsumeQueueUnit.msgSize(unit.byteBuffer(), 0);
            return ConsumeQueueUnit.isMessage(phy, size) && phy < confirmed ? new long[] {phy, size} : null;
        } finally {
            unit.release();
        }
    }

    long getEarliestMessageTime(String topic, int queueId) {
        ConsumeQueue cq = queues.find(topic, queueId);
        if (cq == null) {
            return -1;
        }
        long min = Math.max(cq.getMinOffsetInQueue(), 0);
        for (long offset = min; offset < cq.getMaxOffsetInQueue(); offset++) {
            long timestamp = getMessageStoreTimestamp(topic, queueId, offset);
            if (timestamp >= 0) {
                return timestamp;
            }
            if (offset - min > MAX_FILTERED_UNITS) {
                break;
            }
        }
        return -1;
    }

    /** The record at a commit-log offset when it is intact and may be served, else null. */
    SelectMappedBufferResult selectOneMessage(long commitLogOffset) {
        SelectMappedBufferResult record = commitLog.selectOneMessage(commitLogOffset);
        if (record != null && !check.servable(record, commitLogOffset)) {
            record.release();
            return null;
        }
        return record;
    }

    MessageExt readMessageAt(long commitLogOffset) {
        SelectMappedBufferResult record = selectOneMessage(commitLogOffset);
        if (record == null) {
            return null;
        }
        try {
            return MessageDecoder.decode(record.byteBuffer(), true, false);
        } finally {
            record.release();
        }
    }

    QueryMessageResult queryMessage(String topic, String key, int maxNum, long begin, long end) {
        long confirmed = confirmedOffset.getAsLong();
        QueryOffsetResult offsets = index.queryOffset(topic, key, maxNum, begin, end);
        List<SelectMappedBufferResult> found = new ArrayList<>();
        for (long phy : offsets.phyOffsets()) {
            if (found.size() >= maxNum) {
                break;
            }
            if (phy >= confirmed) {
                continue;
            }
            SelectMappedBufferResult record = selectOneMessage(phy);
            if (record == null) {
                continue;
            }
            if (matchesKey(record.byteBuffer(), topic, key)) {
                found.add(record);
            } else {
                // a hash collision in the index: another key or topic
                record.release();
            }
        }
        return new QueryMessageResult(found, offsets.indexLastUpdateTimestamp(), offsets.indexLastUpdatePhyoffset());
    }

    private static boolean matchesKey(ByteBuffer record, String topic, String key) {
        MessageExt msg = MessageDecoder.decode(record.duplicate(), false, false);
        if (msg == null || !topic.equals(msg.getTopic())) {
            return false;
        }
        if (key.equals(msg.getProperty(MessageProperties.UNIQUE_CLIENT_MESSAGE_ID))) {
            return true;
        }
        String keys = msg.getProperty(MessageProperties.KEYS);
        if (keys == null) {
            return false;
        }
        for (String k : keys.split(" ")) {
            if (k.equals(key)) {
                return true;
            }
        }
        return false;
    }
}
