package dev.wharf.client.impl;

/**
 * A broker's positive answer to a send: {@code code} is SUCCESS or one of the stored-but-not-as-asked codes
 * (FLUSH_DISK_TIMEOUT, FLUSH_SLAVE_TIMEOUT, SLAVE_NOT_AVAILABLE). {@code offsetMsgId} is comma-joined for a batch.
 */
public record SendReply(int code, String brokerAddr, String offsetMsgId, int queueId, long queueOffset,
                        String transactionId) {
}
