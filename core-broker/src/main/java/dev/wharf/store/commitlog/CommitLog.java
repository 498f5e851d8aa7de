package dev.wharf.store.commitlog;

import dev.wharf.common.message.MessageExt;
import dev.wharf.common.message.MessageRecord;
import dev.wharf.common.message.MessageSysFlag;
import dev.wharf.store.file.MappedFile;
import dev.wharf.store.file.MappedFileQueue;
import dev.wharf.store.file.SelectMappedBufferResult;
import dev.wharf.store.health.DiskSpaceGuard;
import dev.wharf.store.health.StoreHealth;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.ClosedByInterruptException;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.ToLongBiFunction;

/**
 * The commit log: every message of every topic appended in order to one {@link MappedFileQueue}, in the
 * record layout of {@link MessageRecord}. A record that does not fit the rest of a file is preceded by a
 * blank record that fills the file, and goes to the next file.
 *
 * <p>Thread-safety: any number of threads put concurrently; each encodes in its own {@link RecordEncoder}
 * and only the copy into the mapped file (plus assigning offsets) happens under the put lock. Reads never
 * take the lock: they see whole records below the write position.
 */
public final class CommitLog {

    /** A batch may hold this many maximum-size messages (and must fit in one file). */
    static final int BATCH_MESSAGE_SIZE_FACTOR = 32;

    private final MappedFileQueue mappedFileQueue;
    private final int fileSize;
    private final int maxMessageSize;
    private final ReentrantLock putLock = new ReentrantLock();
    private final QueueOffsetTable queueOffsets = new QueueOffsetTable();
    /** Where a queue's next offset comes from when the table has not seen the queue yet (its consume queue). */
    private volatile ToLongBiFunction<String, Integer> queueOffsetSource = (topic, queueId) -> 0L;
    private final RecordAppender appender;
    private final ThreadLocal<RecordEncoder> encoders;
    private volatile Runnable appendListener = () -> { };
    private volatile boolean writable = true;
    private volatile DiskSpaceGuard diskSpace;
    private volatile StoreHealth health;

    public CommitLog(Path dir, int fileSize, int maxMessageSize) {
        if (maxMessageSize <= 0) {
            throw new IllegalArgumentException("maxMessageSize must be positive, got " + maxMessageSize);
        }
        this.mappedFileQueue = new MappedFileQueue(dir, fileSize);
        this.fileSize = fileSize;
        this.maxMessageSize = maxMessageSize;
        int maxBatchSize = maxBatchSize(fileSize, maxMessageSize);
        this.encoders = ThreadLocal.withInitial(() -> new RecordEncoder(maxMessageSize, maxBatchSize));
        this.appender = new RecordAppender(fileSize, queueOffsets, this::nextQueueOffsetLocked);
    }

    /**
     * Most bytes one batch may take: it must fit in one file (with room for a closing blank record), and is
     * capped at {@value #BATCH_MESSAGE_SIZE_FACTOR} maximum-size messages so one put never buffers an unbounded
     * amount of memory.
     */
    public static int maxBatchSize(int fileSize, int maxMessageSize) {
        long cap = (long) maxMessageSize * BATCH_MESSAGE_SIZE_FACTOR;
        long fit = (long) fileSize - MessageRecord.BLANK_RECORD_MIN_SIZE;
        return (int) Math.min(cap, fit);
    }

    /**
     * Reserves disk blocks {@code step} bytes at a time ahead of the writer (see {@link MappedFile#reserve(int)}),
     * reporting a file system that refuses them to {@code diskSpace}; a mapped write that faults all the same
     * fails the store through {@code health}. Call before {@link #load()}.
     */
    public void setSpaceGuard(int step, DiskSpaceGuard diskSpace, StoreHealth health) {
        mappedFileQueue.setReserveStep(step, true);
        this.diskSpace = diskSpace;
        this.health = health;
    }

    /**
     * Maps the existing files; recovery then decides where the log really ends. A file shorter than the file
     * size is taken as truncated (extended, and listed in the queue's short files for recovery) unless it is
     * complete at its own size, which means the store was written with another file size.
     */
    public void load() throws IOException {
        ShortFileCheck.rejectOtherFileSize(mappedFileQueue.getStorePath(), fileSize);
        mappedFileQueue.setAcceptShortFiles(true);
        mappedFileQueue.load();
    }

    public MappedFileQueue mappedFileQueue() {
        return mappedFileQueue;
    }

    public int fileSize() {
        return fileSize;
    }

    /** Called after every successful append, on the putting thread (e.g. to wake the dispatcher). Keep it cheap. */
    public void setAppendListener(Runnable listener) {
        this.appendListener = listener == null ? () -> { } : listener;
    }

    /**
     * Cuts the log back to {@code offset} (a record boundary at or below its end) under the put lock, so no put
     * or replicated append interleaves: files after it are deleted, the file holding it is zeroed from there,
     * and the cut is forced to disk (file and folder) before this returns. A replica whose tail diverged from
     * its new master's log cuts it here before it copies again.
     */
    public void truncateTo(long offset) throws IOException {
        putLock.lock();
        try {
            mappedFileQueue.truncateDirtyFiles(offset);
            MappedFile last = mappedFileQueue.lastFile();
            if (last != null) {
                last.forceAll();
            }
            forceFolder(mappedFileQueue.getStorePath());
        } finally {
            putLock.unlock();
        }
    }

    /** Makes file deletions in {@code folder} durable (a deleted file must not come back after a crash). */
    static void forceFolder(Path folder) throws IOException {
        try (FileChannel dir = FileChannel.open(folder, StandardOpenOption.READ)) {
            dir.force(true);
        } catch (IOException e) {
            if (!System.getProperty("os.name", "").toLowerCase(Locale.ROOT).contains("win")) {
                throw e;
            }
            // Windows cannot open a folder as a channel; its deletions are durable once they return
        }
    }

    /**
     * Refuses (or accepts again) puts. Refusing waits for an append in progress, so afterwards nothing is
     * being written (shutdown relies on it).
     */
    public void setWritable(boolean writable) {
        putLock.lock();
        try {
            this.writable = writable;
        } finally {
            putLock.unlock();
        }
    }

    /**
     * Appends one message. On success the message gets its commit-log offset, queue offset, store time and
     * store size.
     *
     * @param properties the message's encoded properties string
     */
    public AppendResult putMessage(MessageExt msg, String properties) {
        RecordEncoder encoder = encoders.get();
        encoder.reset();
        AppendStatus status = encoder.add(msg, properties);
        if (status != AppendStatus.PUT_OK) {
            return AppendResult.failure(status, encoder.errorMessage());
        }
        AppendResult result = appendEncoded(encoder);
        if (result.isOk()) {
            assign(msg, encoder, 0, result);
        }
        return result;
    }

    /**
     * Appends a batch as consecutive records under one lock hold; the whole batch goes into one file. The batch
     * is atomic: every record but the last carries {@link MessageSysFlag#INNER_BATCH_CONTINUES}, so recovery drops
     * a batch whose last record did not reach the disk, and the dispatcher makes the batch visible at once.
     *
     * @param properties the encoded properties string of each message, in the same order
     */
    public AppendResult putMessages(List<? extends MessageExt> msgs, List<String> properties) {
        if (msgs.isEmpty()) {
            return AppendResult.failure(AppendStatus.MESSAGE_ILLEGAL, "The batch is empty; send at least one message.");
        }
        RecordEncoder encoder = encoders.get();
        encoder.reset();
        for (int i = 0; i < msgs.size(); i++) {
            AppendStatus status = encoder.add(msgs.get(i), properties.get(i));
            if (status != AppendStatus.PUT_OK) {
                return AppendResult.failure(status, "Message " + (i + 1) + " of the batch: " + encoder.errorMessage());
            }
        }
        for (int i = 0; i < msgs.size() - 1; i++) {
            encoder.markBatchContinues(i);
        }
        AppendResult result = appendEncoded(encoder);
        if (result.isOk()) {
            for (int i = 0; i < msgs.size(); i++) {
                assign(msgs.get(i), encoder, i, result);
            }
        }
        return result;
    }

    private void assign(MessageExt msg, RecordEncoder encoder, int index, AppendResult result) {
        ByteBuffer raw = encoder.rawBuffer();
        int start = encoder.recordStart(index);
        msg.setCommitLogOffset(raw.getLong(start + MessageRecord.PHYSICAL_OFFSET_OFFSET));
        msg.setQueueOffset(raw.getLong(start + MessageRecord.QUEUE_OFFSET_OFFSET));
        msg.setStoreTimestamp(result.storeTimestamp());
        msg.setStoreSize(raw.getInt(start + MessageRecord.TOTAL_SIZE_OFFSET));
        msg.setBodyCRC(raw.getInt(start + MessageRecord.BODY_CRC_OFFSET));
        msg.setOffsetMsgId(null);
    }

    private AppendResult appendEncoded(RecordEncoder encoder) {
        int size = encoder.encodedSize();
        if (size + MessageRecord.BLANK_RECORD_MIN_SIZE > fileSize) {
            return AppendResult.failure(AppendStatus.MESSAGE_SIZE_EXCEEDED, "The message takes " + size
                    + " bytes stored but a commit-log file holds " + fileSize
                    + " bytes; send less or raise mappedFileSizeCommitLog.");
        }
        AppendResult result;
        putLock.lock();
        try {
            if (!writable) {
                return AppendResult.failure(AppendStatus.SERVICE_NOT_AVAILABLE,
                        "The store is not accepting messages (it is stopped or shutting down).");
            }
            MappedFile file = writableFile();
            if (file == null) {
                return noFile();
            }
            long now = System.currentTimeMillis();
            AppendResult refused = reserve(file, size);
            if (refused != null) {
                return refused;
            }
            appender.prepare(encoder, now);
            appender.appendTo(file);
            if (appender.status() == AppendStatus.END_OF_FILE) {
                file = writableFile();
                if (file == null) {
                    return noFile();
                }
                refused = reserve(file, size);
                if (refused != null) {
                    return refused;
                }
                appender.prepare(encoder, now);
                appender.appendTo(file);
            }
            if (appender.status() != AppendStatus.PUT_OK) {
                return AppendResult.failure(AppendStatus.UNKNOWN_ERROR,
                        "The record did not fit an empty commit-log file.");
            }
            long storeHost = encoder.rawBuffer().getLong(encoder.recordStart(0) + MessageRecord.STORE_HOST_OFFSET);
            result = AppendResult.ok(appender.wroteOffset(), size, storeHost, now, appender.firstQueueOffset(),
                    encoder.count());
        } catch (UncheckedIOException | InternalError e) {
            if (interruptedWrite(e)) {
                // the putting thread was interrupted (a stopping executor): nothing was appended, the log is fine
                return AppendResult.failure(AppendStatus.UNKNOWN_ERROR, "The broker thread writing the message was"
                        + " interrupted (is the broker stopping?); nothing was stored, send it again.");
            }
            return ioFault(e);
        } finally {
            appender.release();
            putLock.unlock();
        }
        appendListener.run();
        return result;
    }

    /**
     * A write failed with an I/O error despite the reservation (a mapped write faults as an {@link InternalError}):
     * the write position did not move, so nothing of this record is visible or acknowledged, but the file can no
     * longer be trusted.
     */
    /** Whether a failed write failed because its thread was interrupted (its channel closed by the interrupt). */
    private static boolean interruptedWrite(Throwable e) {
        return e.getCause() instanceof ClosedByInterruptException;
    }

    private AppendResult ioFault(Throwable e) {
        StoreHealth h = health;
        if (h != null) {
            h.fail("the commit-log writer", e);
        }
        return AppendResult.failure(AppendStatus.IO_FAULT, "The broker could not write the message: "
                + StoreHealth.describe(e) + "; it refuses new messages until it is restarted.");
    }

    private MappedFile writableFile() {
        MappedFile file = mappedFileQueue.rollIfFull(0);
        if (file == null || file.isFull()) {
            // creation failed; an empty queue answers null, a queue whose last file is full answers that file
            return null;
        }
        return file;
    }

    /** Why no file could be created: disk full when the file system is short of a step, else the cause. */
    private AppendResult noFile() {
        String cause = mappedFileQueue.lastCreateFailure();
        DiskSpaceGuard guard = diskSpace;
        if (guard != null) {
            long usable = guard.usableBytes();
            if (usable >= 0 && usable < (long) MappedFile.OS_PAGE_SIZE + reserveStepBytes()) {
                return AppendResult.failure(AppendStatus.DISK_FULL,
                        guard.noRoom(reserveStepBytes(), cause == null ? null : new IOException(cause)));
            }
        }
        return AppendResult.failure(AppendStatus.CREATE_MAPPED_FILE_FAILED,
                "Could not create a commit-log file in " + mappedFileQueue.getStorePath() + (cause == null ? "" : ": "
                        + cause) + "; check free disk space and permissions.");
    }

    private int reserveStepBytes() {
        int step = mappedFileQueue.getReserveStep();
        return step <= 0 ? fileSize : Math.min(step, fileSize);
    }

    /**
     * Gives the file disk blocks for a record of {@code size} bytes at the write position (plus a closing blank
     * record), so that the mapped write cannot fault; null when it has them, else the refusal.
     */
    private AppendResult reserve(MappedFile file, int size) {
        int end = (int) Math.min(fileSize, (long) file.getWrotePosition() + size + MessageRecord.BLANK_RECORD_MIN_SIZE);
        if (end + MappedFile.OS_PAGE_SIZE <= file.getReservedPosition()) {
            return null;
        }
        DiskSpaceGuard guard = diskSpace;
        if (guard != null) {
            // once per step: a statvfs call, so the warning level holds between two clean-up rounds
            guard.check();
            StoreHealth h = health;
            if (h != null && h.isDiskFull()) {
                return AppendResult.failure(AppendStatus.DISK_FULL, h.writeRefusal());
            }
        }
        try {
            file.reserve(end);
            return null;
        } catch (IOException e) {
            String reason = guard != null ? guard.noRoom(reserveStepBytes(), e)
                    : "disk full: " + e.getMessage() + "; free space on the store's file system";
            return AppendResult.failure(AppendStatus.DISK_FULL, reason);
        }
    }

    /**
     * Appends records copied from another replica's commit log, at exactly the offset they had there, so both
     * logs stay byte-identical. {@code records} (position to limit) must hold whole records of one file starting
     * at this log's end: message records whose PHYSICALOFFSET field equals their offset, optionally closed by a
     * blank end-of-file record, which may be given as its 8-byte header alone (the rest of the file stays
     * unwritten). Everything is checked before anything is written: on a refusal the log is unchanged. Does
     * not assign queue offsets (the dispatcher builds the consume queues from the records). Takes the put lock.
     * Unlike a put, it does not run the append listener: the caller tells the dispatcher when it wants.
     */
    public ReplicaAppendResult appendReplicated(long offset, ByteBuffer records) {
        long end;
        putLock.lock();
        try {
            end = mappedFileQueue.getMaxOffset();
            if (mappedFileQueue.isEmpty() ? offset % fileSize != 0 : offset != end) {
                return ReplicaAppendResult.refused(end, "Replicated bytes start at commit-log offset " + offset
                        + " but this log ends at " + end + (mappedFileQueue.isEmpty()
                        ? " (empty: the first bytes must start a file, a multiple of " + fileSize + ")" : "")
                        + "; the stream must continue exactly where the replica's log ends.");
            }
            int start = records.position();
            int length = records.remaining();
            int filePos = (int) (offset % fileSize);
            int room = fileSize - filePos;
            int pos = 0;
            int blankAt = -1;
            while (pos < length) {
                long at = offset + pos;
                if (length - pos < MessageRecord.BLANK_RECORD_MIN_SIZE) {
                    return ReplicaAppendResult.refused(end, "Replicated bytes at offset " + at
                            + " end inside a record header.");
                }
                int magic = records.getInt(start + pos + MessageRecord.MAGIC_CODE_OFFSET);
                int size = records.getInt(start + pos + MessageRecord.TOTAL_SIZE_OFFSET);
                if (magic == MessageRecord.BLANK_MAGIC_CODE) {
                    int rest = room - pos;
                    if (size != rest || (length - pos != MessageRecord.BLANK_RECORD_MIN_SIZE && length - pos != rest)) {
                        return ReplicaAppendResult.refused(end, "The blank end-of-file record at offset " + at
                                + " claims " + size + " bytes but the file has " + rest + " left, or records follow it.");
                    }
                    blankAt = pos;
                    break;
                }
                int checked = RecordValidator.check(records, start + pos, start + Math.min(length, room), at, false);
                if (checked <= 0) {
                    return ReplicaAppendResult.refused(end, "The replicated record at offset " + at
                            + " is not an intact record written at that offset (size " + size + ").");
                }
                if (pos + checked + MessageRecord.BLANK_RECORD_MIN_SIZE > room) {
                    return ReplicaAppendResult.refused(end, "The replicated record at offset " + at
                            + " does not fit its commit-log file of " + fileSize + " bytes; are both replicas"
                            + " configured with the same mappedFileSizeCommitLog?");
                }
                pos += checked;
            }
            MappedFile file = mappedFileQueue.rollIfFull(offset);
            if (file == null || file.getFileFromOffset() + file.getWrotePosition() != offset) {
                return ReplicaAppendResult.refused(end, "Could not open a commit-log file at offset " + offset
                        + " in " + mappedFileQueue.getStorePath() + "; check free disk space and permissions.");
            }
            int messages = blankAt < 0 ? length : blankAt;
            try {
                if (messages > 0) {
                    ByteBuffer part = records.duplicate();
                    part.limit(start + messages).position(start);
                    file.append(part);
                }
                if (blankAt >= 0) {
                    ByteBuffer header = records.duplicate();
                    header.limit(start + blankAt + MessageRecord.BLANK_RECORD_MIN_SIZE).position(start + blankAt);
                    file.appendLast(header);
                }
            } catch (UncheckedIOException | InternalError e) {
                // the records before a failure may be in; the replica's next attempt starts where the log now ends
                long now = mappedFileQueue.getMaxOffset();
                if (interruptedWrite(e)) {
                    return ReplicaAppendResult.refused(now, "Appending replicated bytes was interrupted (is the broker"
                            + " stopping?); the copy resumes at offset " + now + ".");
                }
                return ReplicaAppendResult.refused(now, ioFault(e).errorMessage());
            }
            end = mappedFileQueue.getMaxOffset();
        } finally {
            putLock.unlock();
        }
        // no append listener here: the store announces the bytes when its caller is ready (a slave acks first)
        return ReplicaAppendResult.appended(end);
    }

    /**
     * Sets the next queue offset of a topic/queue (start-up, after recovery, from the consume queues).
     * Takes the put lock.
     */
    public void setQueueOffset(String topic, int queueId, long nextOffset) {
        putLock.lock();
        try {
            queueOffsets.set(topic, queueId, nextOffset);
        } finally {
            putLock.unlock();
        }
    }

    /** The next queue offset a put to this topic/queue would get. */
    public long nextQueueOffset(String topic, int queueId) {
        putLock.lock();
        try {
            return nextQueueOffsetLocked(topic, queueId);
        } finally {
            putLock.unlock();
        }
    }

    /**
     * Sets where the next offset of a queue not seen since start comes from (the end of its consume queue, which
     * is complete for it once start-up dispatching is done). Called once before the log is writable.
     */
    public void setQueueOffsetSource(ToLongBiFunction<String, Integer> source) {
        this.queueOffsetSource = source;
    }

    private long nextQueueOffsetLocked(String topic, int queueId) {
        long next = queueOffsets.next(topic, queueId);
        if (next == QueueOffsetTable.UNKNOWN) {
            next = queueOffsetSource.applyAsLong(topic, queueId);
            queueOffsets.set(topic, queueId, next);
        }
        return next;
    }

    /** Forgets the queue offsets of a topic whose consume queues were dropped. */
    public void removeQueueOffsets(String topic) {
        putLock.lock();
        try {
            queueOffsets.removeTopic(topic);
        } finally {
            putLock.unlock();
        }
    }

    /** Forgets every queue offset (before they are rebuilt). */
    public void clearQueueOffsets() {
        putLock.lock();
        try {
            queueOffsets.clear();
        } finally {
            putLock.unlock();
        }
    }

    /** {@code size} bytes at {@code offset} (one record whose size is known), or null when gone or unwritten. */
    public SelectMappedBufferResult getMessage(long offset, int size) {
        MappedFile file = mappedFileQueue.fileAt(offset);
        if (file == null) {
            return null;
        }
        return file.selectMappedBuffer((int) (offset - file.getFileFromOffset()), size);
    }

    /**
     * The one record at {@code offset}: its size is read from the record itself. Null when the offset is not
     * the start of a complete message record.
     */
    public SelectMappedBufferResult selectOneMessage(long offset) {
        MappedFile file = mappedFileQueue.fileAt(offset);
        if (file == null) {
            return null;
        }
        int pos = (int) (offset - file.getFileFromOffset());
        SelectMappedBufferResult header = file.selectMappedBuffer(pos, MessageRecord.BODY_OFFSET);
        if (header == null) {
            return null;
        }
        int size;
        int magic;
        try {
            size = header.byteBuffer().getInt(MessageRecord.TOTAL_SIZE_OFFSET);
            magic = header.byteBuffer().getInt(MessageRecord.MAGIC_CODE_OFFSET);
        } finally {
            header.release();
        }
        if (magic != MessageRecord.MESSAGE_MAGIC_CODE || size < MessageRecord.BODY_OFFSET) {
            return null;
        }
        SelectMappedBufferResult record = file.selectMappedBuffer(pos, size);
        if (record == null) {
            return null;
        }
        if (RecordValidator.check(record.byteBuffer(), 0, size, offset, false) != size) {
            record.release();
            return null;
        }
        return record;
    }

    /** The readable bytes from {@code offset} to the end of what is written in its file (for the dispatcher). */
    public SelectMappedBufferResult getData(long offset) {
        MappedFile file = mappedFileQueue.fileAt(offset);
        if (file == null) {
            return null;
        }
        return file.selectMappedBuffer((int) (offset - file.getFileFromOffset()));
    }

    /** Reads the STORETIMESTAMP of the record at {@code offset}, or -1 when it is gone. */
    public long pickupStoreTimestamp(long offset, int size) {
        if (size < MessageRecord.STORE_TIMESTAMP_OFFSET + Long.BYTES) {
            return -1;
        }
        SelectMappedBufferResult record = getMessage(offset, size);
        if (record == null) {
            return -1;
        }
        try {
            return record.byteBuffer().getLong(MessageRecord.STORE_TIMESTAMP_OFFSET);
        } finally {
            record.release();
        }
    }

    /** Start of the file after the one holding {@code offset}. */
    public long rollNextFile(long offset) {
        return offset + fileSize - offset % fileSize;
    }

    /** Offset of the first stored byte (0 when empty); a file being deleted no longer counts. */
    public long getMinOffset() {
        MappedFile first = mappedFileQueue.firstFile();
        if (first == null) {
            return 0;
        }
        if (first.isAvailable()) {
            return first.getFileFromOffset();
        }
        return rollNextFile(first.getFileFromOffset());
    }

    /** Offset just past the last complete record. */
    public long getMaxOffset() {
        return mappedFileQueue.getMaxOffset();
    }

    public long getFlushedWhere() {
        return mappedFileQueue.getFlushedWhere();
    }

    /** Deletes expired files; see {@link MappedFileQueue#deleteExpiredFileByTime}. */
    public int deleteExpiredFile(long expiredMillis, long deleteFilesIntervalMillis, long intervalForcibly,
            boolean cleanImmediately, int maxDelete) {
        return mappedFileQueue.deleteExpiredFileByTime(expiredMillis, deleteFilesIntervalMillis, intervalForcibly,
                cleanImmediately, maxDelete);
    }

    public boolean retryDeleteFirstFile(long intervalForcibly) {
        return mappedFileQueue.retryDeleteFirstFile(intervalForcibly);
    }

    /** Unmaps every file (after the last flush). */
    public void shutdown() {
        setWritable(false);
        mappedFileQueue.shutdown(1000);
    }
}
