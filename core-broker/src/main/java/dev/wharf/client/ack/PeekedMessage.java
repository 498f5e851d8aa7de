package dev.wharf.client.ack;

import dev.wharf.common.message.MessageExt;

/**
 * A message seen by a browse: still on the queue for the group (not acknowledged; possibly leased to a consumer
 * right now).
 *
 * @param message             the stored message (broker name set)
 * @param previousDeliveries  how often it was delivered so far (0 = never)
 */
public record PeekedMessage(MessageExt message, int previousDeliveries) {
}
