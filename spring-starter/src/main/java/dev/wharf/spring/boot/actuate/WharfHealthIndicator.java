package dev.wharf.spring.boot.actuate;

import dev.wharf.protocol.body.RouteData.ClusterInfo;
import dev.wharf.spring.boot.autoconfigure.WharfConnectionDetails;
import dev.wharf.spring.boot.embedded.EmbeddedWharfBroker;
import dev.wharf.store.StoreStats;
import dev.wharf.store.health.StoreHealth;
import java.io.IOException;
import java.nio.file.FileStore;
import java.nio.file.Files;
import java.util.TreeSet;
import org.springframework.boot.health.contributor.AbstractHealthIndicator;
import org.springframework.boot.health.contributor.Health;

/**
 * The health of the application's broker. Embedded: the broker runs and its store's disk is below the broker's
 * {@code diskMaxUsedSpaceRatio} (above it, the store deletes messages early to make room), and the store takes
 * writes (not refusing them for a full disk, a stuck dispatcher or a failed service), with the disk use and
 * failed writes as details. In every case: the NameServer answers and lists at least one broker (a broker stays
 * listed while it sends heartbeats), with the brokers as details.
 */
public final class WharfHealthIndicator extends AbstractHealthIndicator {

    private final WharfConnectionDetails details;
    private final WharfBrokerClient client;

    public WharfHealthIndicator(WharfConnectionDetails details, WharfBrokerClient client) {
        super("Wharf health check failed");
        this.details = details;
        this.client = client;
    }

    @Override
    protected void doHealthCheck(Health.Builder builder) throws Exception {
        builder.withDetail("url", details.url());
        EmbeddedWharfBroker embedded = details.embeddedBroker();
        if (embedded != null && !embeddedHealthy(embedded, builder)) {
            return;
        }
        ClusterInfo cluster = client.clusterInfo();
        TreeSet<String> brokers = new TreeSet<>(cluster.brokerAddrTable().keySet());
        builder.withDetail("brokers", brokers);
        if (brokers.isEmpty()) {
            builder.down().withDetail("error", "No broker is registered with the NameServer");
            return;
        }
        builder.up();
    }

    private static boolean embeddedHealthy(EmbeddedWharfBroker embedded, Health.Builder builder) throws IOException {
        builder.withDetail("embedded", true).withDetail("storeDir", embedded.storeDir().toString());
        if (!embedded.isRunning()) {
            builder.down().withDetail("error", "The embedded broker is stopped");
            return false;
        }
        FileStore disk = Files.getFileStore(embedded.storeDir());
        long total = disk.getTotalSpace();
        double usedPercent = total == 0 ? 0 : 100.0 * (total - disk.getUsableSpace()) / total;
        int limit = embedded.broker().settings().store().getDiskMaxUsedSpaceRatio();
        StoreStats stats = embedded.broker().store().stats();
        builder.withDetail("diskUsedPercent", Math.round(usedPercent * 10) / 10.0)
                .withDetail("diskMaxUsedSpaceRatio", limit)
                .withDetail("diskFreeBytes", disk.getUsableSpace())
                .withDetail("storedMessages", stats.putMessageCount())
                .withDetail("failedWrites", stats.putFailureCount());
        StoreHealth storeHealth = embedded.broker().store().health();
        builder.withDetail("store", storeHealth.isUp() ? "UP" : String.valueOf(storeHealth.condition()));
        if (!storeHealth.isUp()) {
            // refusing writes (disk full, dispatch stuck, failed): the application cannot send, so it is not healthy
            builder.down().withDetail("error", storeHealth.writeRefusal());
            return false;
        }
        if (usedPercent > limit) {
            builder.down().withDetail("error", "The store's disk is " + Math.round(usedPercent) + "% full, above "
                    + limit + "%: old messages are deleted early; free disk space or move wharf.embedded.store-dir");
            return false;
        }
        return true;
    }
}
