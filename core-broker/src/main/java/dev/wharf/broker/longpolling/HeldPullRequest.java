package dev.wharf.broker.longpolling;

import java.util.function.LongPredicate;

/**
 * A pull waiting for a message: the queue and offset it waits at, when it gives up, which tag hashes can wake
 * it, and what to do when it wakes (re-run the pull and answer). Immutable.
 *
 * @param topic          topic of the queue
 * @param queueId        queue id
 * @param offset         the offset the pull asked for; a queue end beyond it means news
 * @param deadlineMillis epoch millis after which the pull is answered empty
 * @param tagsCodeFilter whether a new message's tag hash may match the pull's subscription
 * @param onWake         re-runs the pull; called once, on the thread that wakes it (must hand off)
 */
public record HeldPullRequest(String topic, int queueId, long offset, long deadlineMillis,
                              LongPredicate tagsCodeFilter, Runnable onWake) {
}
