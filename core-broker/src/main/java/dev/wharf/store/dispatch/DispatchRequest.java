package dev.wharf.store.dispatch;

import java.util.Map;

/**
 * One committed message as the dispatcher hands it to every {@link CommitLogDispatcher}: where it lies in the
 * commit log and what the consume queue and index need to know about it. Immutable.
 *
 * @param topic                     the topic the record was stored under
 * @param queueId                   queue within the topic
 * @param commitLogOffset           physical offset of the record's first byte
 * @param msgSize                   the record's TOTALSIZE
 * @param tagsCode                  the consume-queue tag slot: {@code Tags.hash(TAGS)}, or the delivery time
 *                                  for the schedule topic
 * @param storeTimestamp            when the store wrote the record
 * @param consumeQueueOffset        the record's QUEUEOFFSET: its unit number in the consume queue
 * @param keys                      the KEYS property (space-separated) or null
 * @param uniqKey                   the UNIQ_KEY property or null
 * @param sysFlag                   the record's SYSFLAG
 * @param preparedTransactionOffset the record's PREPAREDTRANSACTIONOFFSET
 * @param properties                the decoded properties (never null; do not modify)
 */
public record DispatchRequest(
        String topic,
        int queueId,
        long commitLogOffset,
        int msgSize,
        long tagsCode,
        long storeTimestamp,
        long consumeQueueOffset,
        String keys,
        String uniqKey,
        int sysFlag,
        long preparedTransactionOffset,
        Map<String, String> properties) {

    /** Physical offset just past this record. */
    public long nextOffset() {
        return commitLogOffset + msgSize;
    }
}
