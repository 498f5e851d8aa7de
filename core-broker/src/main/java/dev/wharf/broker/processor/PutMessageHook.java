package dev.wharf.broker.processor;

import dev.wharf.remoting.RemotingChannel;
import dev.wharf.store.MessageToStore;

/**
 * A step of the send path that runs for every message a client sends, after the broker's own checks and
 * before the message is stored (scheduled delivery moves a delayed message to SCHEDULE_TOPIC_XXXX; the
 * transaction support moves a half message to the half topic). Hooks run in registration order on a send
 * thread; they must be fast and must not block.
 *
 * <p>A hook may change the message in place: topic, queue id, sys flag, tags code, properties. The send path
 * stores the client's encoded properties string as it came ({@link MessageToStore#getPropertiesString()}),
 * so a hook that changes properties must change the map ({@code putProperty}/{@code removeProperty}) AND call
 * {@code msg.setPropertiesString(null)} so that the store encodes the map. A hook that changes the topic must
 * make sure the topic exists (e.g. through the topic manager). In a batch every message must stay in one topic
 * and queue; a hook that moves one is refused for the whole batch.
 */
@FunctionalInterface
public interface PutMessageHook {

    /** What the hook knows about the request the message came in. */
    record SendContext(String producerGroup, RemotingChannel channel, boolean batch) {
    }

    /** The answer to the sender when a hook refuses a message; nothing of the request is stored. */
    record Refusal(int responseCode, String remark) {
    }

    /**
     * Looks at, and possibly changes, a message about to be stored.
     *
     * @return null to go on, or a refusal to answer the sender with instead of storing
     */
    Refusal beforePut(SendContext context, MessageToStore msg);

    /** Runs hooks in order; the first refusal stops the rest. */
    static Refusal runAll(Iterable<PutMessageHook> hooks, SendContext context, MessageToStore msg) {
        for (PutMessageHook hook : hooks) {
            Refusal refusal = hook.beforePut(context, msg);
            if (refusal != null) {
                return refusal;
            }
        }
        return null;
    }
}
