package dev.wharf.client.consumer;

import dev.wharf.common.message.MessageExt;
import java.util.List;

/**
 * The answer to a pull.
 *
 * @param nextBeginOffset where the next pull of this queue starts
 * @param minOffset       the queue's smallest offset still stored
 * @param maxOffset       the queue's next offset to be written
 * @param msgFoundList    the messages, in queue order, bodies decompressed; empty unless {@link PullStatus#FOUND}
 */
public record PullResult(PullStatus pullStatus, long nextBeginOffset, long minOffset, long maxOffset,
                         List<MessageExt> msgFoundList) {
}
