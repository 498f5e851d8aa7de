package dev.wharf.chaos;

import dev.wharf.chaos.nemesis.FaultKind;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

/**
 * Everything a chaos run needs to know.
 *
 * @param dir              folder of the run: the nodes' folders, the ledger and the report
 * @param controllerMode   brokers in controller mode (automatic failover) with {@code controllers} controllers
 * @param faults           the kinds of fault the nemesis picks from
 * @param faultSeconds     how long the nemesis runs
 * @param quietMillis      gap between faults
 * @param holdMillis       length of each fault
 * @param warmupSeconds    load before the first fault
 * @param recoverySeconds  load after the last fault is healed, so its failover is measured
 * @param drainSeconds     longest wait for the consumers to read everything after the producers stop
 * @param producers        producer threads
 * @param rate             sends per second over all producers
 * @param sendTimeoutMillis a send's timeout
 * @param queuesPerBroker  queues of the topic on each broker name
 * @param routePollMillis  how often clients refresh routes from the NameServers (pollNameServerInterval)
 * @param brokerSettings   extra broker configuration keys
 * @param controllerSettings extra controller configuration keys
 */
public record RunOptions(Path dir, boolean controllerMode, int nameServers, int brokerGroups, int replicas,
                         int controllers, List<FaultKind> faults, int faultSeconds, long quietMillis, long holdMillis,
                         int warmupSeconds, int recoverySeconds, int drainSeconds, int producers, int rate,
                         int sendTimeoutMillis, int queuesPerBroker, int heapMb, long seed, int routePollMillis,
                         Map<String, String> brokerSettings, Map<String, String> controllerSettings) {
}
