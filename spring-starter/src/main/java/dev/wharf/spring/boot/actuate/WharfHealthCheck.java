package dev.wharf.spring.boot.actuate;

import dev.wharf.embedded.StoreStatus;
import dev.wharf.protocol.body.RouteData.ClusterInfo;
import dev.wharf.spring.boot.autoconfigure.WharfConnectionDetails;
import dev.wharf.spring.boot.embedded.EmbeddedWharfBroker;
import java.io.IOException;
import java.nio.file.FileStore;
import java.nio.file.Files;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.TreeSet;
import java.util.function.Supplier;

/**
 * The health of the application's broker, apart from the health API of a Spring Boot generation (Boot 4's
 * {@code org.springframework.boot.health} and Boot 3's {@code org.springframework.boot.actuate.health} each adapt it
 * in their {@link WharfHealthIndicator}). Embedded: the broker runs and its store's disk is below the broker's
 * {@code diskMaxUsedSpaceRatio} (above it, the store deletes messages early to make room), and the store takes
 * writes (not refusing them for a full disk, a stuck dispatcher or a failed service), with the disk use and
 * failed writes as details. In every case: the NameServer answers and lists at least one broker (a broker stays
 * listed while it sends heartbeats), with the brokers as details.
 */
public final class WharfHealthCheck {

    private final WharfConnectionDetails details;
    private final WharfBrokerClient client;
    private final Supplier<Map<String, String>> listenerStates;

    public WharfHealthCheck(WharfConnectionDetails details, WharfBrokerClient client) {
        this(details, client, Map::of);
    }

    /**
     * @param listenerStates the state of each {@code @MessageListener} container by id, shown under "listeners";
     *                       a container whose state starts with FAILED makes the application down
     */
    public WharfHealthCheck(WharfConnectionDetails details, WharfBrokerClient client,
                            Supplier<Map<String, String>> listenerStates) {
        this.details = details;
        this.client = client;
        this.listenerStates = listenerStates;
    }

    /** The broker URL the application uses; an indicator shows it also when the check throws. */
    public String url() {
        return details.url();
    }

    /**
     * Checks the broker once.
     *
     * @return whether it is up, and the details; a down result names the reason under "error"
     * @throws Exception when the NameServer cannot be asked (the indicator reports it as down)
     */
    public Result check() throws Exception {
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("url", details.url());
        EmbeddedWharfBroker embedded = details.embeddedBroker();
        if (embedded != null && !embeddedHealthy(embedded, out)) {
            return new Result(false, out);
        }
        Map<String, String> listeners = listenerStates.get();
        if (!listeners.isEmpty()) {
            out.put("listeners", listeners);
            for (Map.Entry<String, String> l : listeners.entrySet()) {
                if (l.getValue().startsWith("FAILED")) {
                    out.put("error", "The @MessageListener " + l.getKey() + " failed: " + l.getValue());
                    return new Result(false, out);
                }
            }
        }
        ClusterInfo cluster = client.clusterInfo();
        TreeSet<String> brokers = new TreeSet<>(cluster.brokerAddrTable().keySet());
        out.put("brokers", brokers);
        if (brokers.isEmpty()) {
            out.put("error", "No broker is registered with the NameServer");
            return new Result(false, out);
        }
        return new Result(true, out);
    }

    private static boolean embeddedHealthy(EmbeddedWharfBroker embedded, Map<String, Object> out) throws IOException {
        out.put("embedded", true);
        out.put("storeDir", embedded.storeDir().toString());
        if (!embedded.isRunning()) {
            out.put("error", "The embedded broker is stopped");
            return false;
        }
        FileStore disk = Files.getFileStore(embedded.storeDir());
        long total = disk.getTotalSpace();
        double usedPercent = total == 0 ? 0 : 100.0 * (total - disk.getUsableSpace()) / total;
        StoreStatus store = embedded.storeStatus();
        int limit = store.diskMaxUsedSpaceRatio();
        out.put("diskUsedPercent", Math.round(usedPercent * 10) / 10.0);
        out.put("diskMaxUsedSpaceRatio", limit);
        out.put("diskFreeBytes", disk.getUsableSpace());
        out.put("storedMessages", store.storedMessages());
        out.put("failedWrites", store.failedWrites());
        out.put("store", store.condition());
        if (!store.takesWrites()) {
            // refusing writes (disk full, dispatch stuck, failed): the application cannot send, so it is not healthy
            out.put("error", store.writeRefusal());
            return false;
        }
        if (usedPercent > limit) {
            out.put("error", "The store's disk is " + Math.round(usedPercent) + "% full, above " + limit
                    + "%: old messages are deleted early; free disk space or move wharf.embedded.store-dir");
            return false;
        }
        return true;
    }

    /**
     * One check's outcome.
     *
     * @param up whether the broker serves the application
     * @param details what was seen, in the order it was checked
     */
    public record Result(boolean up, Map<String, Object> details) {
    }
}
