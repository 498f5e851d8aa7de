package dev.wharf.client.producer;

import dev.wharf.common.message.MessageQueue;

/**
 * The outcome of a send.
 *
 * @param msgId         the client unique id (UNIQ_KEY property), stable across retries; comma-joined for a batch
 * @param offsetMsgId   the broker's message id (store host + commit-log offset), comma-joined for a batch
 * @param messageQueue  the queue the message went to
 * @param queueOffset   the message's offset in that queue (the first one for a batch)
 * @param transactionId the transaction id, for half messages; else null
 */
public record SendResult(SendStatus sendStatus, String msgId, String offsetMsgId, MessageQueue messageQueue,
                         long queueOffset, String transactionId) {
}
