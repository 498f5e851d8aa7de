package dev.wharf.client.ack;

import java.util.List;

/**
 * A page of a browse.
 *
 * @param messages the messages still on the queues for the group, in queue order within each queue
 * @param next     where the next page starts; {@link PeekCursor#isEnd()} when the browse is complete
 */
public record PeekResult(List<PeekedMessage> messages, PeekCursor next) {

    public PeekResult {
        messages = List.copyOf(messages);
    }
}
