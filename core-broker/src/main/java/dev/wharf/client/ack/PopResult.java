package dev.wharf.client.ack;

import java.util.List;

/**
 * The answer to a pop: {@link PopStatus#FOUND} with the leased messages, or {@link PopStatus#NO_MESSAGE} with
 * none. Each message must be acknowledged ({@link AckConsumer#ack}) or given back
 * ({@link AckConsumer#changeInvisibleTime}) before its lease ends, else it is redelivered.
 */
public record PopResult(PopStatus status, List<PoppedMessage> messages) {

    static final PopResult NONE = new PopResult(PopStatus.NO_MESSAGE, List.of());

    public PopResult {
        messages = List.copyOf(messages);
    }
}
