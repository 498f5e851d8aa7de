package dev.wharf.client.consumer;

import dev.wharf.common.message.MessageExt;
import java.util.List;

/**
 * Consumes messages on many threads at once, in no particular order. Returning
 * {@link ConsumeConcurrentlyStatus#RECONSUME_LATER} (or throwing) sends the messages (from
 * {@code ctx.getAckIndex() + 1} on) back to the broker for a delayed retry; they come back with a higher
 * {@code reconsumeTimes}, and after {@code maxReconsumeTimes} go to the dead-letter queue.
 */
@FunctionalInterface
public interface MessageListenerConcurrently {

    /** @param msgs up to {@code consumeMessageBatchMaxSize} messages (1 by default); do not modify the list */
    ConsumeConcurrentlyStatus consumeMessage(List<MessageExt> msgs, ConsumeConcurrentlyContext ctx);
}
