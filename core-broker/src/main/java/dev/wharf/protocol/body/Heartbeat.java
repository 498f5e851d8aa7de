package dev.wharf.protocol.body;

import java.util.List;
import java.util.Set;
import dev.wharf.common.message.MessageQueue;

/** Bodies of client management: heartbeats, membership lists, queue locks. */
public final class Heartbeat {

    private Heartbeat() {
    }

    /** HEART_BEAT body: the client's producer and consumer groups. */
    public record HeartbeatData(String clientID, Set<ProducerData> producerDataSet, Set<ConsumerData> consumerDataSet) {
    }

    public record ProducerData(String groupName) {
    }

    public record ConsumerData(String groupName, ConsumerModel.ConsumeType consumeType,
                               ConsumerModel.MessageModel messageModel, ConsumerModel.ConsumeFromWhere consumeFromWhere,
                               Set<SubscriptionData> subscriptionDataSet) {
    }

    /**
     * A subscription of a group to a topic. For TAG expressions {@code tagsSet} holds the tags and
     * {@code codeSet} their hashes ("*" = empty sets).
     */
    public record SubscriptionData(String topic, String subString, ConsumerModel.ExpressionType expressionType,
                                   Set<String> tagsSet, Set<Integer> codeSet, long subVersion) {
    }

    /** CHECK_CLIENT_CONFIG body: a consumer's subscription to be checked before it starts. */
    public record CheckClientRequestBody(String clientId, String group, SubscriptionData subscriptionData) {
    }

    /** GET_CONSUMER_LIST_BY_GROUP answer. */
    public record ConsumerListBody(List<String> consumerIdList) {
    }

    /** LOCK_BATCH_MQ / UNLOCK_BATCH_MQ body (orderly consumption). */
    public record LockBatchRequestBody(String consumerGroup, String clientId, Set<MessageQueue> mqSet) {
    }

    /** LOCK_BATCH_MQ answer: the queues now locked by the asking client. */
    public record LockBatchResponseBody(Set<MessageQueue> lockOKMQSet) {
    }
}
