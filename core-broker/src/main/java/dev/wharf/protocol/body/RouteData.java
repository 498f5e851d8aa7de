package dev.wharf.protocol.body;

import java.util.List;
import java.util.Map;
import java.util.Set;

/** Route bodies exchanged with the NameServer. */
public final class RouteData {

    /** brokerId of a master; slaves have ids above it. */
    public static final long MASTER_ID = 0L;

    private RouteData() {
    }

    /** One broker's share of a topic. */
    public record QueueData(String brokerName, int readQueueNums, int writeQueueNums, int perm, int topicSysFlag) {
    }

    /** A broker group: master (id 0) and slaves under one broker name. */
    public record BrokerData(String cluster, String brokerName, Map<Long, String> brokerAddrs) {
        /** The master's address, or any address when no master is registered. */
        public String selectBrokerAddr() {
            String master = brokerAddrs.get(MASTER_ID);
            if (master != null || brokerAddrs.isEmpty()) {
                return master;
            }
            return brokerAddrs.values().iterator().next();
        }
    }

    /** GET_ROUTEINFO_BY_TOPIC answer. */
    public record TopicRouteData(List<QueueData> queueDatas, List<BrokerData> brokerDatas) {
    }

    /** Version of a broker's topic table, so the NameServer can skip unchanged re-registrations. */
    public record DataVersion(long timestamp, long counter) {
    }

    /** REGISTER_BROKER body: every topic the broker serves. */
    public record RegisterBrokerBody(Map<String, TopicConfig> topicConfigTable, DataVersion dataVersion) {
    }

    /** GET_BROKER_CLUSTER_INFO answer. */
    public record ClusterInfo(Map<String, BrokerData> brokerAddrTable, Map<String, Set<String>> clusterAddrTable) {
    }

    /** GET_ALL_TOPIC_LIST_FROM_NAMESERVER and GET_ALL_TOPIC_CONFIG-style topic name lists. */
    public record TopicList(Set<String> topicList) {
    }

    /** GET_ALL_TOPIC_CONFIG answer. */
    public record TopicConfigTable(Map<String, TopicConfig> topicConfigTable) {
    }
}
