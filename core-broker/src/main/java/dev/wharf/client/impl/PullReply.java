package dev.wharf.client.impl;

import dev.wharf.common.message.MessageExt;
import java.util.List;

/**
 * A broker's answer to a pull, messages decoded (bodies inflated, tags re-checked against the subscription).
 *
 * @param nextBeginOffset      the offset to pull from next
 * @param suggestWhichBrokerId the broker of the group the broker suggests for the next pull (0 = the master)
 */
public record PullReply(Kind kind, long nextBeginOffset, long minOffset, long maxOffset, List<MessageExt> messages,
                        long suggestWhichBrokerId) {

    /** What the pull found. */
    public enum Kind {
        /** Messages found (the list may still be empty when the client-side tag check removed them all). */
        FOUND,
        /** Nothing at or after the offset yet. */
        NO_NEW_MSG,
        /** Messages were there but none matched the subscription; pull again from nextBeginOffset. */
        NO_MATCHED_MSG,
        /** The offset is outside the queue (too small or too big); continue from nextBeginOffset. */
        OFFSET_ILLEGAL
    }
}
