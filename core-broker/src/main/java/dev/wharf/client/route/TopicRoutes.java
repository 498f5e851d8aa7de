package dev.wharf.client.route;

import dev.wharf.common.message.MessageQueue;
import dev.wharf.protocol.body.RouteData.BrokerData;
import dev.wharf.protocol.body.RouteData.QueueData;
import dev.wharf.protocol.body.RouteData.TopicRouteData;
import dev.wharf.protocol.body.TopicPerm;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;

/** Reads the queues a NameServer route offers: writable ones for producers, readable ones for consumers. */
public final class TopicRoutes {

    private TopicRoutes() {
    }

    /** Writable queues of brokers with a master, sorted by broker name then queue id. */
    public static List<MessageQueue> publishQueues(String topic, TopicRouteData route) {
        List<MessageQueue> out = new ArrayList<>();
        if (route == null || route.queueDatas() == null) {
            return out;
        }
        List<QueueData> queueDatas = new ArrayList<>(route.queueDatas());
        queueDatas.sort((a, b) -> a.brokerName().compareTo(b.brokerName()));
        for (QueueData q : queueDatas) {
            if ((q.perm() & TopicPerm.WRITE) == 0 || masterAddress(route, q.brokerName()) == null) {
                continue;
            }
            for (int i = 0; i < q.writeQueueNums(); i++) {
                out.add(new MessageQueue(topic, q.brokerName(), i));
            }
        }
        return out;
    }

    /** Readable queues of brokers present in the route, sorted. */
    public static Set<MessageQueue> subscribeQueues(String topic, TopicRouteData route) {
        Set<MessageQueue> out = new TreeSet<>();
        if (route == null || route.queueDatas() == null) {
            return out;
        }
        for (QueueData q : route.queueDatas()) {
            if ((q.perm() & TopicPerm.READ) == 0 || anyAddress(route, q.brokerName()) == null) {
                continue;
            }
            for (int i = 0; i < q.readQueueNums(); i++) {
                out.add(new MessageQueue(topic, q.brokerName(), i));
            }
        }
        return out;
    }

    /** The master's address of a broker name in this route, or null. */
    public static String masterAddress(TopicRouteData route, String brokerName) {
        BrokerData data = broker(route, brokerName);
        return data == null || data.brokerAddrs() == null ? null : data.brokerAddrs().get(0L);
    }

    /** The master's address, else any slave's, or null. */
    public static String anyAddress(TopicRouteData route, String brokerName) {
        BrokerData data = broker(route, brokerName);
        return data == null || data.brokerAddrs() == null ? null : data.selectBrokerAddr();
    }

    private static BrokerData broker(TopicRouteData route, String brokerName) {
        if (route == null || route.brokerDatas() == null) {
            return null;
        }
        for (BrokerData b : route.brokerDatas()) {
            if (brokerName.equals(b.brokerName())) {
                return b;
            }
        }
        return null;
    }
}
