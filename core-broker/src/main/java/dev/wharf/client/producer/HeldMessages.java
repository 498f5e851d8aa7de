package dev.wharf.client.producer;

import dev.wharf.common.message.Message;
import dev.wharf.common.message.MessageQueue;
import java.util.ArrayList;
import java.util.List;

/**
 * The messages of a transaction kept on the client until its commit, so that a transaction of one queue commits as
 * one atomic batch: one request, one write and (SYNC_FLUSH) one force, no half messages, nothing to copy. Only what
 * a batch can carry is held: messages to one queue, not delayed, together at most {@code limitBytes}. Not
 * thread-safe (its transaction's).
 */
final class HeldMessages {

    /** What a message costs in an encoded batch beyond its body and properties (sizes, flags, CRC). */
    private static final int ENTRY_OVERHEAD = 32;

    private final int limitBytes;
    private final List<Message> messages = new ArrayList<>();
    private final List<String> encodedProperties = new ArrayList<>();
    private MessageQueue queue;
    private long bytes;

    /** @param limitBytes most bytes held (estimated as encoded); 0 holds nothing */
    HeldMessages(int limitBytes) {
        this.limitBytes = Math.max(0, limitBytes);
    }

    /**
     * Holds {@code msg} if it fits: same queue as those held, not delayed, within the limit.
     *
     * @param properties the message's properties, checked and encoded
     * @return whether it is held now
     */
    boolean offer(Message msg, MessageQueue mq, String properties) {
        if (limitBytes == 0 || mq == null || mq.queueId() < 0 || (queue != null && !queue.equals(mq))
                || OutgoingMessage.isDelayed(msg)) {
            return false;
        }
        long after = bytes + (msg.getBody() == null ? 0 : msg.getBody().length) + properties.length() + ENTRY_OVERHEAD;
        if (after > limitBytes) {
            return false;
        }
        queue = mq;
        bytes = after;
        messages.add(msg);
        encodedProperties.add(properties);
        return true;
    }

    boolean isEmpty() {
        return messages.isEmpty();
    }

    int size() {
        return messages.size();
    }

    /** The queue every held message goes to; null while none is held. */
    MessageQueue queue() {
        return queue;
    }

    /** The held messages, in sending order (a view: do not keep it). */
    List<Message> view() {
        return messages;
    }

    /** The encoded properties of {@link #view()}'s messages, in the same order (a view). */
    List<String> encodedProperties() {
        return encodedProperties;
    }

    /** The held messages, in sending order, and empties the holder. */
    List<Message> takeAll() {
        List<Message> taken = new ArrayList<>(messages);
        messages.clear();
        encodedProperties.clear();
        queue = null;
        bytes = 0;
        return taken;
    }
}
