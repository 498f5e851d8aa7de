package dev.wharf.jms.it.foreign;

import jakarta.jms.Queue;

/** The other provider's queue: a name and nothing else. */
public record ForeignQueue(String getQueueName) implements Queue {
}
