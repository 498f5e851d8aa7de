package dev.wharf.server.admin;

import dev.wharf.client.ClientException;
import dev.wharf.common.SystemTopics;
import dev.wharf.protocol.body.RouteData.ClusterInfo;
import dev.wharf.protocol.body.RouteData.QueueData;
import dev.wharf.protocol.body.RouteData.TopicRouteData;
import dev.wharf.server.cli.CliException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.Callable;
import picocli.CommandLine.ArgGroup;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParentCommand;

/** {@code wharf admin topic-create}. */
@Command(name = "topic-create", mixinStandardHelpOptions = true,
        description = "Creates a topic (or changes its queue count) on every master broker, on the masters of one "
                + "cluster, or on one broker; waits until the NameServer routes it.")
final class TopicCreateCommand implements Callable<Integer> {

    /** How long to wait for the NameServer to route the new topic (brokers register it at once). */
    private static final long ROUTE_WAIT_MILLIS = 5_000;

    @Mixin
    TopicOption topicOption;

    /** The checked {@code --topic}. */
    private String topic;

    @Option(names = "--queues", defaultValue = "8", paramLabel = "N",
            description = "Read and write queues per broker, 1..1024 (default: ${DEFAULT-VALUE}).")
    int queues;

    @ArgGroup(exclusive = true)
    Target target;

    static final class Target {
        @Option(names = "--broker", paramLabel = "NAME", description = "Only on this broker.")
        String broker;

        @Option(names = "--cluster", paramLabel = "NAME", description = "On the masters of this cluster.")
        String cluster;
    }

    @ParentCommand
    AdminCommand admin;

    @Override
    public Integer call() throws Exception {
        topic = topicOption.checked();
        if (SystemTopics.isInternal(topic)) {
            throw CliException.usage("The topic " + topic + " is internal to the broker; choose another name.");
        }
        if (queues < 1 || queues > 1024) {
            throw CliException.usage("--queues must be 1..1024, got " + queues + ".");
        }
        try (AdminSession session = admin.open()) {
            List<String> brokers = targets(session);
            String where = target == null ? null : target.broker != null ? target.broker : target.cluster;
            session.admin().createTopic(topic, queues, where);
            boolean routed = waitForRoute(session, brokers);
            Map<String, Object> fields = new LinkedHashMap<>();
            fields.put("topic", topic);
            fields.put("queues", queues);
            fields.put("brokers", brokers);
            fields.put("routed", routed);
            admin.output().result("Created topic " + topic + " with " + queues + " queues on " + String.join(", ", brokers)
                    + (routed ? "." : "; the NameServer does not route it yet (brokers register again within 30 s)."),
                    fields);
        }
        return 0;
    }

    /** The broker names the topic goes to, checked against what is registered. */
    private List<String> targets(AdminSession session) throws CliException {
        ClusterInfo cluster = session.cluster();
        Set<String> brokers = cluster.brokerAddrTable() == null ? Set.of() : cluster.brokerAddrTable().keySet();
        Map<String, Set<String>> clusters = cluster.clusterAddrTable() == null ? Map.of() : cluster.clusterAddrTable();
        if (brokers.isEmpty()) {
            throw CliException.failed("No broker is registered with the NameServer at " + session.namesrv()
                    + "; start one (wharf broker --namesrv " + session.namesrv() + ") before creating topics.");
        }
        if (target != null && target.broker != null) {
            if (!brokers.contains(target.broker)) {
                throw CliException.failed("No broker named " + target.broker + " is registered with the NameServer at "
                        + session.namesrv() + "; registered: " + new TreeSet<>(brokers) + " (see: wharf admin brokers).");
            }
            if (clusters.containsKey(target.broker)) {
                throw CliException.failed("\"" + target.broker + "\" names both a cluster and a broker; the topic "
                        + "would go to the whole cluster. Rename the broker or use --cluster.");
            }
            return List.of(target.broker);
        }
        if (target != null && target.cluster != null) {
            Set<String> members = clusters.get(target.cluster);
            if (members == null) {
                throw CliException.failed("No cluster named " + target.cluster + " is registered with the NameServer at "
                        + session.namesrv() + "; registered: " + new TreeSet<>(clusters.keySet())
                        + " (see: wharf admin brokers).");
            }
            return new ArrayList<>(new TreeSet<>(members));
        }
        return new ArrayList<>(new TreeSet<>(brokers));
    }

    /** Polls the route until every target broker serves the topic with the new queue count, or the wait ends. */
    private boolean waitForRoute(AdminSession session, List<String> brokers) throws InterruptedException {
        long deadline = System.nanoTime() + ROUTE_WAIT_MILLIS * 1_000_000;
        while (true) {
            if (routed(session, brokers)) {
                return true;
            }
            if (System.nanoTime() - deadline > 0) {
                return false;
            }
            Thread.sleep(100);
        }
    }

    private boolean routed(AdminSession session, List<String> brokers) throws InterruptedException {
        TopicRouteData route;
        try {
            route = session.admin().route(topic);
        } catch (ClientException e) {
            return false;
        }
        Set<String> serving = new TreeSet<>();
        if (route.queueDatas() != null) {
            for (QueueData q : route.queueDatas()) {
                if (q.writeQueueNums() == queues) {
                    serving.add(q.brokerName());
                }
            }
        }
        return serving.containsAll(brokers);
    }
}
