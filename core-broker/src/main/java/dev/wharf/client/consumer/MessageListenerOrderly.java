package dev.wharf.client.consumer;

import dev.wharf.common.message.MessageExt;
import java.util.List;

/**
 * Consumes each queue's messages in queue order, one thread per queue at a time (queues in parallel). Returning
 * {@link ConsumeOrderlyStatus#SUSPEND_CURRENT_QUEUE_A_MOMENT} (or throwing) pauses the queue and delivers the same
 * messages again first, so order is kept; after {@code maxReconsumeTimes} they go to the dead-letter queue.
 */
@FunctionalInterface
public interface MessageListenerOrderly {

    ConsumeOrderlyStatus consumeMessage(List<MessageExt> msgs, ConsumeOrderlyContext ctx);
}
