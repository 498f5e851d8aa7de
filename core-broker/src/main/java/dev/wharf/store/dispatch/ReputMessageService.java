package dev.wharf.store.dispatch;

import dev.wharf.common.util.ServiceThread;
import dev.wharf.store.commitlog.CommitLog;
import dev.wharf.store.commitlog.RecordValidator;
import dev.wharf.store.file.SelectMappedBufferResult;
import java.nio.ByteBuffer;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.LongAdder;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Follows the commit log from the reput offset and hands every committed record to the dispatchers in order
 * (consume queue, index, arrival listener, ...). The put path wakes it after each append; it also polls
 * every {@code pollMillis} as a fallback.
 *
 * <p>Threading: {@link #doReput()} runs on this service's thread (or, before the service starts, on the
 * start-up thread to catch up after recovery). Dispatchers run on that thread. {@link #getReputFromOffset()}
 * may be read from any thread.
 */
public final class ReputMessageService extends ServiceThread {

    private static final Logger log = LoggerFactory.getLogger(ReputMessageService.class);

    private final CommitLog commitLog;
    private final List<CommitLogDispatcher> dispatchers = new CopyOnWriteArrayList<>();
    private final long pollMillis;
    private final LongAdder dispatched = new LongAdder();
    private volatile long reputFromOffset;
    private long lastReportedInvalid = -1;

    public ReputMessageService(CommitLog commitLog, long pollMillis) {
        this.commitLog = commitLog;
        this.pollMillis = pollMillis;
    }

    @Override
    public String getServiceName() {
        return "wharf-reput";
    }

    /** Adds a dispatcher at the end of the list (before the service starts). */
    public void addDispatcher(CommitLogDispatcher dispatcher) {
        dispatchers.add(dispatcher);
    }

    public List<CommitLogDispatcher> dispatchers() {
        return List.copyOf(dispatchers);
    }

    /** Everything below this offset has been dispatched. */
    public long getReputFromOffset() {
        return reputFromOffset;
    }

    public void setReputFromOffset(long offset) {
        this.reputFromOffset = offset;
    }

    /** Commit-log bytes not dispatched yet. */
    public long behindBytes() {
        return Math.max(0, commitLog.getMaxOffset() - reputFromOffset);
    }

    /** Records dispatched since start. */
    public long dispatchedCount() {
        return dispatched.sum();
    }

    @Override
    public void run() {
        while (!isStopped()) {
            waitForRunning(pollMillis);
            try {
                doReput();
            } catch (RuntimeException e) {
                log.error("Dispatch failed at commit-log offset {}; will retry", reputFromOffset, e);
            }
        }
        // dispatch what the last puts wrote before the store flushes and writes its checkpoint
        doReput();
    }

    /** Dispatches everything written so far. */
    public void doReput() {
        long minOffset = commitLog.getMinOffset();
        if (reputFromOffset < minOffset) {
            log.warn("Dispatch offset {} is below the first commit-log offset {}; skipping to it", reputFromOffset,
                    minOffset);
            reputFromOffset = minOffset;
        }
        while (reputFromOffset < commitLog.getMaxOffset()) {
            long offset = reputFromOffset;
            SelectMappedBufferResult data = commitLog.getData(offset);
            if (data == null) {
                if (offset % commitLog.fileSize() == 0 || offset >= commitLog.getMaxOffset()) {
                    return;
                }
                // a full file's last bytes: continue in the next file
                reputFromOffset = commitLog.rollNextFile(offset);
                continue;
            }
            try {
                if (!dispatchSlice(data, offset)) {
                    return;
                }
            } finally {
                data.release();
            }
        }
    }

    /** Dispatches the records of one slice; false when it must stop (invalid record). */
    private boolean dispatchSlice(SelectMappedBufferResult data, long offset) {
        ByteBuffer buffer = data.byteBuffer();
        int limit = data.size();
        int pos = 0;
        while (pos < limit) {
            long recordOffset = offset + pos;
            int size = RecordValidator.check(buffer, pos, limit, recordOffset, false);
            if (size > 0) {
                DispatchRequest request = DispatchRequestDecoder.decode(buffer, pos, recordOffset);
                if (request != null) {
                    for (CommitLogDispatcher dispatcher : dispatchers) {
                        dispatcher.dispatch(request);
                    }
                }
                pos += size;
                reputFromOffset = recordOffset + size;
                dispatched.increment();
            } else if (size == RecordValidator.BLANK) {
                reputFromOffset = commitLog.rollNextFile(recordOffset);
                return true;
            } else {
                if (lastReportedInvalid != recordOffset) {
                    lastReportedInvalid = recordOffset;
                    log.error("Commit-log record at offset {} is not intact; dispatch stops there", recordOffset);
                }
                return false;
            }
        }
        return true;
    }
}
