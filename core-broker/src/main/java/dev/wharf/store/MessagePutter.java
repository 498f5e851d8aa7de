package dev.wharf.store;

import dev.wharf.common.message.HostAddress;
import dev.wharf.store.commitlog.AppendResult;
import dev.wharf.store.commitlog.CommitLog;
import dev.wharf.store.commitlog.GroupCommitService;
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

    MessagePutter(CommitLog commitLog, GroupCommitService groupCommit, StoreStats stats, String storeHost) {
        this.commitLog = commitLog;
        this.groupCommit = groupCommit;
        this.stats = stats;
        this.defaultStoreHost = HostAddress.pack(storeHost);
    }

    CompletableFuture<PutMessageResult> put(MessageExtBrokerInner msg) {
        if (msg == null) {
            return failed(PutMessageStatus.MESSAGE_ILLEGAL, "The message is null; give a message to store.");
        }
        String properties;
        try {
            properties = msg.encodedPropertiesChecked();
        } catch (IllegalArgumentException e) {
            return failed(PutMessageStatus.MESSAGE_ILLEGAL, e.getMessage());
        }
        if (msg.getStoreHost() == 0L) {
            msg.setStoreHost(defaultStoreHost);
        }
        AppendResult result = commitLog.putMessage(msg, properties);
        return complete(result, msg.getStoreHost(), msg.isWaitStoreMsgOK());
    }

    CompletableFuture<PutMessageResult> putBatch(List<MessageExtBrokerInner> batch) {
        if (batch == null || batch.isEmpty()) {
            return failed(PutMessageStatus.MESSAGE_ILLEGAL, "The batch is empty; send at least one message.");
        }
        List<String> properties = new ArrayList<>(batch.size());
        boolean wait = false;
        for (int i = 0; i < batch.size(); i++) {
            MessageExtBrokerInner msg = batch.get(i);
            if (msg == null) {
                return failed(PutMessageStatus.MESSAGE_ILLEGAL, "Message " + (i + 1) + " of the batch is null.");
            }
            try {
                properties.add(msg.encodedPropertiesChecked());
            } catch (IllegalArgumentException e) {
                return failed(PutMessageStatus.MESSAGE_ILLEGAL, "Message " + (i + 1) + " of the batch: " + e.getMessage());
            }
            if (msg.getStoreHost() == 0L) {
                msg.setStoreHost(defaultStoreHost);
            }
            wait |= msg.isWaitStoreMsgOK();
        }
        AppendResult result = commitLog.putMessages(batch, properties);
        return complete(result, batch.get(0).getStoreHost(), wait);
    }

    private CompletableFuture<PutMessageResult> complete(AppendResult result, long storeHost, boolean waitForDisk) {
        if (!result.isOk()) {
            return failed(map(result), result.errorMessage());
        }
        stats.recordPut(result.msgNum(), result.wroteBytes());
        AppendMessageResult appended = new AppendMessageResult(result.wroteOffset(), result.wroteBytes(), storeHost,
                result.storeTimestamp(), result.logicsOffset(), result.msgNum());
        if (groupCommit == null || !waitForDisk) {
            return CompletableFuture.completedFuture(PutMessageResult.ok(appended));
        }
        return groupCommit.submit(result.nextOffset()).thenApply(onDisk -> {
            if (onDisk) {
                return PutMessageResult.ok(appended);
            }
            stats.recordFlushTimeout();
            return new PutMessageResult(PutMessageStatus.FLUSH_DISK_TIMEOUT, appended,
                    "The message is stored but the disk did not confirm it within syncFlushTimeout.");
        });
    }

    private CompletableFuture<PutMessageResult> failed(PutMessageStatus status, String message) {
        stats.recordPutFailure();
        return CompletableFuture.completedFuture(PutMessageResult.failure(status, message));
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
            default:
                return PutMessageStatus.UNKNOWN_ERROR;
        }
    }
}
