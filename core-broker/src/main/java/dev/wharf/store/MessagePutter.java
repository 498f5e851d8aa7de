package dev.wharf.store;

import dev.wharf.common.message.HostAddress;
import dev.wharf.store.commitlog.AppendResult;
import dev.wharf.store.commitlog.AppendStatus;
import dev.wharf.store.commitlog.CommitLog;
import dev.wharf.store.commitlog.GroupCommitService;
import dev.wharf.store.health.DiskSpaceGuard;
import dev.wharf.store.health.StoreHealth;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;

/**
 * The put path: checks what the commit log cannot (properties), appends, then waits for the disk when
 * SYNC_FLUSH asks for it. Returns status codes, never throws for bad input. Thread-safe.
 */
final class MessagePutter {

    private final CommitLog commitLog;
    private final GroupCommitService groupCommit; // null for ASYNC_FLUSH
    private final StoreStats stats;
    private final long defaultStoreHost;
    private final StoreHealth health;
    private final DiskSpaceGuard diskSpace;
    /** Replication's gate and wait (HA); null when the broker is not replicated. */
    private volatile PutReplication replication;

    MessagePutter(CommitLog commitLog, GroupCommitService groupCommit, StoreStats stats, String storeHost,
            StoreHealth health, DiskSpaceGuard diskSpace) {
        this.commitLog = commitLog;
        this.groupCommit = groupCommit;
        this.stats = stats;
        this.defaultStoreHost = HostAddress.pack(storeHost);
        this.health = health;
        this.diskSpace = diskSpace;
    }

    /**
     * Null while the store takes writes, else why not. A full disk is looked at again (at most every 100 ms), so
     * puts resume by themselves once space returns.
     */
    private AppendResult refusal() {
        String reason = health.writeRefusal();
        if (reason == null) {
            return null;
        }
        if (health.condition() == StoreHealth.Condition.DISK_FULL) {
            diskSpace.recheckIfDue();
            reason = health.writeRefusal();
            if (reason == null) {
                return null;
            }
        }
        return AppendResult.failure(health.condition() == StoreHealth.Condition.DISK_FULL ? AppendStatus.DISK_FULL
                : AppendStatus.STORE_NOT_WRITABLE, reason);
    }

    void setReplication(PutReplication replication) {
        this.replication = replication;
    }

    /** Stores one message, blocking for the disk when SYNC_FLUSH asks for it. */
    PutMessageResult put(MessageToStore msg) {
        PutMessageResult refused = admit();
        if (refused != null) {
            return refused;
        }
        long started = System.nanoTime();
        AppendResult result = append(msg);
        if (!result.isOk()) {
            return failed(result);
        }
        stats.recordAppendNanos(System.nanoTime() - started);
        return finish(result, waitsForDisk(msg, result));
    }

    /**
     * Whether the put waits for the disk: as the message asks, except for a record forced later, which is left to
     * the group commit's next force (at most one round away) and not waited for.
     */
    private boolean waitsForDisk(MessageToStore msg, AppendResult result) {
        if (!msg.isForcedLater()) {
            return msg.isWaitStoreMsgOK();
        }
        if (groupCommit != null) {
            groupCommit.forceSoon(result.nextOffset());
        }
        return false;
    }

    /** Stores one message; the future completes once it is on disk (SYNC_FLUSH) or at once. */
    CompletableFuture<PutMessageResult> putAsync(MessageToStore msg) {
        PutMessageResult refused = admit();
        if (refused != null) {
            return CompletableFuture.completedFuture(refused);
        }
        long started = System.nanoTime();
        AppendResult result = append(msg);
        if (!result.isOk()) {
            return CompletableFuture.completedFuture(failed(result));
        }
        stats.recordAppendNanos(System.nanoTime() - started);
        return finishAsync(result, waitsForDisk(msg, result));
    }

    PutMessageResult putBatch(List<MessageToStore> batch) {
        if (batch == null || batch.isEmpty()) {
            return failed(AppendResult.failure(AppendStatus.MESSAGE_ILLEGAL,
                    "The batch is empty; send at least one message."));
        }
        PutMessageResult refused = admit();
        if (refused != null) {
            return refused;
        }
        AppendResult notWritable = refusal();
        if (notWritable != null) {
            return failed(notWritable);
        }
        List<String> properties = new ArrayList<>(batch.size());
        boolean wait = false;
        for (int i = 0; i < batch.size(); i++) {
            MessageToStore msg = batch.get(i);
            if (msg == null) {
                return failed(AppendResult.failure(AppendStatus.MESSAGE_ILLEGAL,
                        "Message " + (i + 1) + " of the batch is null."));
            }
            try {
                properties.add(msg.encodedPropertiesChecked());
            } catch (IllegalArgumentException e) {
                return failed(AppendResult.failure(AppendStatus.MESSAGE_ILLEGAL,
                        "Message " + (i + 1) + " of the batch: " + e.getMessage()));
            }
            if (msg.getStoreHost() == 0L) {
                msg.setStoreHost(defaultStoreHost);
            }
            wait |= msg.isWaitStoreMsgOK();
        }
        long started = System.nanoTime();
        AppendResult result = commitLog.putMessages(batch, properties);
        if (!result.isOk()) {
            return failed(result);
        }
        stats.recordAppendNanos(System.nanoTime() - started);
        return finish(result, wait);
    }

    /** Checks what the commit log cannot check and appends. */
    private AppendResult append(MessageToStore msg) {
        if (msg == null) {
            return AppendResult.failure(AppendStatus.MESSAGE_ILLEGAL, "The message is null; give a message to store.");
        }
        AppendResult refused = refusal();
        if (refused != null) {
            return refused;
        }
        String properties;
        try {
            properties = msg.encodedPropertiesChecked();
        } catch (IllegalArgumentException e) {
            return AppendResult.failure(AppendStatus.MESSAGE_ILLEGAL, e.getMessage());
        }
        if (msg.getStoreHost() == 0L) {
            msg.setStoreHost(defaultStoreHost);
        }
        return commitLog.putMessage(msg, properties);
    }

    private AppendResult appended(AppendResult result) {
        stats.recordPut(result.msgNum(), result.wroteBytes());
        return result;
    }

    private PutMessageResult admit() {
        PutReplication r = replication;
        if (r == null) {
            return null;
        }
        PutMessageResult refused = r.admit();
        if (refused != null) {
            stats.recordPutFailure();
        }
        return refused;
    }

    private PutMessageResult finish(AppendResult result, boolean waitForDisk) {
        AppendResult appended = appended(result);
        if (groupCommit != null && waitForDisk && !groupCommit.waitForFlush(result.nextOffset())) {
            return flushTimeout(appended);
        }
        PutReplication r = replication;
        if (r == null || !waitForDisk) {
            return PutMessageResult.ok(appended);
        }
        // the caller's thread waits on a future completed by replication's one waiter service
        return replicated(r.replicate(result.nextOffset()).join(), appended);
    }

    private CompletableFuture<PutMessageResult> finishAsync(AppendResult result, boolean waitForDisk) {
        AppendResult appended = appended(result);
        PutReplication r = replication;
        boolean replicate = r != null && waitForDisk;
        if (groupCommit == null || !waitForDisk) {
            return replicate ? r.replicate(result.nextOffset()).thenApply(outcome -> replicated(outcome, appended))
                    : CompletableFuture.completedFuture(PutMessageResult.ok(appended));
        }
        return groupCommit.submit(result.nextOffset()).thenCompose(onDisk -> {
            if (!onDisk) {
                return CompletableFuture.completedFuture(flushTimeout(appended));
            }
            return replicate ? r.replicate(result.nextOffset()).thenApply(outcome -> replicated(outcome, appended))
                    : CompletableFuture.completedFuture(PutMessageResult.ok(appended));
        });
    }

    private static PutMessageResult replicated(PutMessageResult outcome, AppendResult appended) {
        if (outcome.status() == PutMessageStatus.PUT_OK) {
            return PutMessageResult.ok(appended);
        }
        return new PutMessageResult(outcome.status(), appended, outcome.errorMessage());
    }

    private PutMessageResult flushTimeout(AppendResult appended) {
        stats.recordFlushTimeout();
        return new PutMessageResult(PutMessageStatus.FLUSH_DISK_TIMEOUT, appended,
                "The message is stored but the disk did not confirm it within syncFlushTimeout.");
    }

    private PutMessageResult failed(AppendResult result) {
        stats.recordPutFailure();
        return PutMessageResult.failure(map(result), result.errorMessage());
    }

    private static PutMessageStatus map(AppendResult result) {
        switch (result.status()) {
            case MESSAGE_SIZE_EXCEEDED:
            case MESSAGE_ILLEGAL:
                return PutMessageStatus.MESSAGE_ILLEGAL;
            case PROPERTIES_SIZE_EXCEEDED:
                return PutMessageStatus.PROPERTIES_SIZE_EXCEEDED;
            case CREATE_MAPPED_FILE_FAILED:
                return PutMessageStatus.CREATE_MAPPED_FILE_FAILED;
            case SERVICE_NOT_AVAILABLE:
                return PutMessageStatus.SERVICE_NOT_AVAILABLE;
            case STORE_NOT_WRITABLE:
                return PutMessageStatus.STORE_NOT_WRITABLE;
            case DISK_FULL:
                return PutMessageStatus.DISK_FULL;
            case IO_FAULT:
                return PutMessageStatus.STORE_NOT_WRITABLE;
            default:
                return PutMessageStatus.UNKNOWN_ERROR;
        }
    }
}
