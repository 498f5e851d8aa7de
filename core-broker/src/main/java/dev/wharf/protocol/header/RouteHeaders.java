package dev.wharf.protocol.header;

/** Headers of the NameServer requests and of topic administration. */
public final class RouteHeaders {

    private RouteHeaders() {
    }

    /**
     * REGISTER_BROKER / UNREGISTER_BROKER. Register carries a RegisterBrokerBody. {@code masterEpoch}: in
     * controller mode, the master epoch the controllers elected this broker's master at (null otherwise); a
     * registration as id 0 with a higher epoch than the live holder's may take the master's place (see the
     * NameServer's takeover rule).
     */
    public record RegisterBrokerRequest(
            @Required String brokerName,
            @Required String brokerAddr,
            @Required String clusterName,
            long brokerId,
            String haServerAddr,
            Integer masterEpoch) {

        /** A registration without a master epoch (a broker not in controller mode). */
        public RegisterBrokerRequest(String brokerName, String brokerAddr, String clusterName, long brokerId,
                                     String haServerAddr) {
            this(brokerName, brokerAddr, clusterName, brokerId, haServerAddr, null);
        }
    }

    public record RegisterBrokerResponse(String haServerAddr, String masterAddr) {
    }

    /** GET_ROUTEINFO_BY_TOPIC, DELETE_TOPIC_IN_NAMESRV, DELETE_TOPIC_IN_BROKER, GET_TOPIC_STATS_INFO. */
    public record TopicRequest(@Required String topic) {
    }

    /** UPDATE_AND_CREATE_TOPIC on a broker. {@code perm}: see TopicPerm. */
    public record CreateTopicRequest(
            @Required String topic,
            int readQueueNums,
            int writeQueueNums,
            int perm,
            int topicSysFlag,
            boolean order) {
    }
}
