package dev.wharf.remoting.auth;

import dev.wharf.common.SystemTopics;
import dev.wharf.protocol.RemotingCommand;
import dev.wharf.protocol.RequestCode;
import dev.wharf.security.Action;
import dev.wharf.security.Resource;
import java.util.List;

/**
 * The rights each request code needs, read from its header fields. Retry and dead-letter topics and groups
 * ({@code %RETRY%g}, {@code %DLQ%g}) stand for their group {@code g}: whoever may SUB the group may read its dead
 * letters. Codes not listed (replication, controller, custom processors) need ADMIN on {@code cluster:*}.
 */
final class RequestAccess {

    /** One right a request needs. */
    record Need(Resource resource, Action action) {
    }

    /** Any authenticated user may send these (lookups and the connection's own bookkeeping). */
    private static final List<Need> AUTHENTICATED = List.of();
    private static final String ANY_CLUSTER = "*";

    private RequestAccess() {
    }

    /** The rights {@code request} needs; empty when being authenticated is enough. */
    static List<Need> needs(RemotingCommand request) {
        return switch (request.code()) {
            case RequestCode.SEND_MESSAGE, RequestCode.SEND_MESSAGE_V2, RequestCode.SEND_BATCH_MESSAGE ->
                    List.of(onTopic(topic(request), Action.PUB));
            case RequestCode.CONSUMER_SEND_MSG_BACK -> List.of(onGroup(field(request, "group"), Action.SUB));
            case RequestCode.PULL_MESSAGE, RequestCode.POP_MESSAGE, RequestCode.PEEK_MESSAGE,
                 RequestCode.ACK_MESSAGE, RequestCode.CHANGE_MESSAGE_INVISIBLETIME,
                 RequestCode.QUERY_CONSUMER_OFFSET, RequestCode.UPDATE_CONSUMER_OFFSET,
                 RequestCode.CREATE_ACK_GROUP, RequestCode.DELETE_ACK_GROUP ->
                    List.of(onTopic(topic(request), Action.SUB), onGroup(field(request, "consumerGroup"), Action.SUB));
            case RequestCode.GET_MAX_OFFSET, RequestCode.GET_MIN_OFFSET, RequestCode.SEARCH_OFFSET_BY_TIMESTAMP,
                 RequestCode.GET_EARLIEST_MSG_STORETIME, RequestCode.QUERY_MESSAGE ->
                    List.of(onTopic(topic(request), Action.SUB));
            case RequestCode.GET_CONSUME_STATS, RequestCode.GET_ACK_STATS ->
                    List.of(onGroup(field(request, "consumerGroup"), Action.SUB));
            case RequestCode.UPDATE_AND_CREATE_TOPIC, RequestCode.DELETE_TOPIC_IN_BROKER,
                 RequestCode.DELETE_TOPIC_IN_NAMESRV -> List.of(onTopic(topic(request), Action.ADMIN));
            case RequestCode.INVOKE_BROKER_TO_RESET_OFFSET ->
                    List.of(onGroup(field(request, "group"), Action.ADMIN));
            case RequestCode.REGISTER_BROKER, RequestCode.UNREGISTER_BROKER ->
                    List.of(new Need(Resource.cluster(field(request, "clusterName")), Action.ADMIN));
            // the consumer list of a group is also what JMS connections probe a broker with
            case RequestCode.HEART_BEAT, RequestCode.UNREGISTER_CLIENT, RequestCode.GET_CONSUMER_LIST_BY_GROUP,
                 RequestCode.LOCK_BATCH_MQ,
                 RequestCode.UNLOCK_BATCH_MQ, RequestCode.CLAIM_EXCLUSIVE, RequestCode.RELEASE_EXCLUSIVE,
                 RequestCode.END_TRANSACTION, RequestCode.GET_ROUTEINFO_BY_TOPIC,
                 RequestCode.GET_BROKER_CLUSTER_INFO, RequestCode.GET_ALL_TOPIC_LIST_FROM_NAMESERVER,
                 RequestCode.GET_ALL_TOPIC_CONFIG, RequestCode.GET_TOPIC_STATS_INFO,
                 RequestCode.GET_BROKER_RUNTIME_INFO, RequestCode.GET_BROKER_STATUS, RequestCode.LIST_ACK_GROUPS,
                 RequestCode.CONTROLLER_GET_METADATA_INFO -> AUTHENTICATED;
            default -> List.of(new Need(Resource.cluster(ANY_CLUSTER), Action.ADMIN));
        };
    }

    /** The topic of a send or read; RocketMQ's compact send header names it "b". */
    private static String topic(RemotingCommand request) {
        String topic = request.ext("topic");
        if (topic == null && request.code() == RequestCode.SEND_MESSAGE_V2) {
            topic = request.ext("b");
        }
        return topic == null ? "" : topic;
    }

    private static String field(RemotingCommand request, String name) {
        String value = request.ext(name);
        return value == null ? "" : value;
    }

    /** A retry or dead-letter topic is its group's; any other topic is itself. */
    private static Need onTopic(String topic, Action action) {
        String group = groupOf(topic);
        if (group != null) {
            return new Need(Resource.group(group), action == Action.ADMIN ? Action.ADMIN : Action.SUB);
        }
        return new Need(Resource.topic(topic), action);
    }

    private static Need onGroup(String group, Action action) {
        String owner = groupOf(group);
        return new Need(Resource.group(owner != null ? owner : group), action);
    }

    private static String groupOf(String name) {
        if (name.startsWith(SystemTopics.RETRY_GROUP_TOPIC_PREFIX)) {
            return name.substring(SystemTopics.RETRY_GROUP_TOPIC_PREFIX.length());
        }
        if (name.startsWith(SystemTopics.DLQ_GROUP_TOPIC_PREFIX)) {
            return name.substring(SystemTopics.DLQ_GROUP_TOPIC_PREFIX.length());
        }
        return null;
    }
}
