package dev.wharf.client.impl;

import dev.wharf.protocol.body.Heartbeat.ConsumerData;
import java.util.Set;

/**
 * What a {@link ClientInstance} needs from a consumer registered with it. The instance calls
 * {@link #rebalance()} on its single rebalance thread (every 20 s and soon after a membership notification),
 * {@link #persistOffsets()} on its scheduler, and {@link #consumerIdsChanged()} or {@link #offsetsReset} on a
 * callback thread when a broker sends NOTIFY_CONSUMER_IDS_CHANGED.
 */
public interface ConsumerMember {

    String groupName();

    /**
     * The member's entry in heartbeats, or null when it does not join the group's membership (a pull consumer,
     * which must not take queues away from the group's push consumers).
     */
    ConsumerData heartbeatData();

    /** Topics whose routes the instance keeps fresh for this member. */
    Set<String> subscribedTopics();

    /** Recomputes the queues this member owns; runs on the instance's rebalance thread only. */
    void rebalance();

    /** The broker reported a change of the group's members. */
    void consumerIdsChanged();

    /**
     * An operator reset the group's offsets of {@code topic}: the member must drop its process queues of the topic
     * without committing and re-read their offsets from the broker (which ignores commits of the old positions
     * until then).
     */
    void offsetsReset(String topic);

    /** Commits the member's offsets (to the broker, or to the local file in broadcasting mode). */
    void persistOffsets();
}
