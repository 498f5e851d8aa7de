package dev.wharf.chaos.cluster;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;

/**
 * The shape of the cluster under test.
 *
 * @param dir            folder for every node's data, configuration and log
 * @param nameServers    NameServer processes (1 or 2)
 * @param brokerGroups   broker names (broker-a, broker-b, ...)
 * @param replicas       brokers per name: a master and replicas - 1 slaves
 * @param controllerMode brokers run with enableControllerMode=true against {@code controllers} controller processes
 *                       and fail over automatically; otherwise classic SYNC_MASTER/SLAVE groups with fixed roles
 * @param controllers    controller processes in controller mode (3 or 5)
 * @param javaCommand    the java launcher for the children
 * @param classPath      a class path holding the Wharf server
 * @param heapMb         heap of each child JVM
 * @param brokerSettings extra broker configuration keys (RocketMQ's names), written into every broker's file
 * @param controllerSettings extra controller configuration keys
 */
public record ClusterSpec(Path dir, int nameServers, int brokerGroups, int replicas, boolean controllerMode,
                          int controllers, String javaCommand, String classPath, int heapMb,
                          Map<String, String> brokerSettings, Map<String, String> controllerSettings) {

    public ClusterSpec {
        if (nameServers < 1 || nameServers > 3) {
            throw new IllegalArgumentException("name servers must be 1..3, got " + nameServers);
        }
        if (brokerGroups < 1 || brokerGroups > 26) {
            throw new IllegalArgumentException("broker groups must be 1..26, got " + brokerGroups);
        }
        if (replicas < 2 || replicas > 5) {
            throw new IllegalArgumentException("replicas per broker name must be 2..5 (a master and its slaves), got "
                    + replicas);
        }
        if (controllerMode && controllers != 1 && controllers != 3 && controllers != 5) {
            throw new IllegalArgumentException("controllers must be 1, 3 or 5, got " + controllers);
        }
        brokerSettings = Map.copyOf(brokerSettings);
        controllerSettings = Map.copyOf(controllerSettings);
    }

    /** The broker names: broker-a, broker-b, ... */
    public List<String> brokerNames() {
        return java.util.stream.IntStream.range(0, brokerGroups).mapToObj(i -> "broker-" + (char) ('a' + i)).toList();
    }

    /** The cluster name every broker registers under. */
    public static String clusterName() {
        return "chaos";
    }
}
