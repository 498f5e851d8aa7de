package dev.wharf.broker.group;

import java.util.List;

/** Told when the members of a consumer group change, so the broker can tell the remaining members to rebalance. */
@FunctionalInterface
public interface ConsumerIdsChangeListener {

    /**
     * @param group   the consumer group
     * @param members the members now (empty when the last one left)
     * @param left    the member that left, or null when one joined
     */
    void membersChanged(String group, List<ClientChannelInfo> members, ClientChannelInfo left);
}
