package dev.wharf.broker.group;

/**
 * Per consumer group settings kept by the broker.
 *
 * @param groupName                      the group
 * @param consumeEnable                  whether the group may pull at all
 * @param consumeBroadcastEnable         whether the group may consume in broadcasting mode
 * @param retryQueueNums                 queues of the group's retry topic
 * @param retryMaxTimes                  redeliveries before a message goes to the group's dead-letter queue
 * @param notifyConsumerIdsChangedEnable whether members are told when membership changes
 */
public record SubscriptionGroupConfig(String groupName, boolean consumeEnable, boolean consumeBroadcastEnable,
                                      int retryQueueNums, int retryMaxTimes, boolean notifyConsumerIdsChangedEnable) {

    /** The settings a group gets when it is created on first use. */
    public static SubscriptionGroupConfig defaults(String groupName, int retryMaxTimes) {
        return new SubscriptionGroupConfig(groupName, true, true, 1, retryMaxTimes, true);
    }
}
