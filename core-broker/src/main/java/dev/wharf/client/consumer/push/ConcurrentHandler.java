package dev.wharf.client.consumer.push;

import dev.wharf.common.message.MessageExt;
import dev.wharf.common.message.MessageQueue;
import java.util.List;

/** Consumes a batch of messages in any order (adapts the application's concurrent listener). */
@FunctionalInterface
public interface ConcurrentHandler {

    /** @return the outcome; an exception counts as "consume later" for the whole batch */
    Outcome consume(List<MessageExt> msgs, MessageQueue mq);

    /**
     * @param success    whether the batch (up to {@code ackIndex}) was consumed
     * @param ackIndex   index of the last consumed message of the batch; later ones are retried
     * @param delayLevel delay level of the retry (0 = the broker decides, -1 = straight to the dead-letter queue)
     */
    record Outcome(boolean success, int ackIndex, int delayLevel) {

        public static Outcome failed() {
            return new Outcome(false, -1, 0);
        }
    }
}
