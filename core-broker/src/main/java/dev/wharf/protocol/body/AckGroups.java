package dev.wharf.protocol.body;

import java.util.List;

/**
 * LIST_ACK_GROUPS answer: the (group, topic) pairs with acknowledgement state on a broker.
 *
 * @param groups sorted by group, then topic
 */
public record AckGroups(List<GroupTopic> groups) {

    /** One group's state on one topic. */
    public record GroupTopic(String group, String topic) {
    }
}
