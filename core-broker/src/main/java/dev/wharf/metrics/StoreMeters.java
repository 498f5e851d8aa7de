package dev.wharf.metrics;

import dev.wharf.store.MessageStore;
import dev.wharf.store.StoreObserver;
import dev.wharf.store.StoreStats;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import java.io.IOException;
import java.nio.file.FileStore;
import java.nio.file.Files;
import java.util.concurrent.TimeUnit;
import java.util.function.ToDoubleFunction;

/**
 * The store's meters: put (append) and flush latency histograms fed as they happen, per-topic traffic handed to
 * {@link TopicMeters}, and levels read when scraped (commit-log size, disk, dispatch lag, the store's counters).
 * Thread-safe.
 */
final class StoreMeters implements StoreObserver {

    private final MessageStore store;
    private final TopicMeters topics;
    private final Timer putLatency;
    private final Timer flushLatency;
    private final FileStore disk;

    StoreMeters(MeterRegistry registry, MessageStore store, TopicMeters topics) {
        this.store = store;
        this.topics = topics;
        this.putLatency = Timer.builder("wharf.store.put.latency")
                .description("Time of one append to the commit log (lock, encode, copy), without disk or replica waits")
                .serviceLevelObjectives(RequestMeters.LATENCY_BUCKETS).register(registry);
        this.flushLatency = Timer.builder("wharf.store.flush.latency")
                .description("Time of one force of the commit log to disk")
                .serviceLevelObjectives(RequestMeters.LATENCY_BUCKETS).register(registry);
        this.disk = fileStore(store);
        StoreStats stats = store.stats();
        counter(registry, "wharf.store.put.messages", "Messages stored since start", stats, StoreStats::putMessageCount);
        counter(registry, "wharf.store.put.failures", "Puts refused since start (bad input, disk, replication)",
                stats, StoreStats::putFailureCount);
        counter(registry, "wharf.store.flushes", "Forces of the commit log to disk since start", stats,
                StoreStats::flushCount);
        counter(registry, "wharf.store.flush.timeouts", "SYNC_FLUSH puts answered FLUSH_DISK_TIMEOUT since start",
                stats, StoreStats::flushTimeoutCount);
        counter(registry, "wharf.store.damaged.reads.skipped", "Reads that skipped a damaged or quarantined record",
                stats, StoreStats::damagedReadSkipCount);
        Gauge.builder("wharf.store.commitlog.size", store, s -> Math.max(0, s.getMaxPhyOffset() - s.getMinPhyOffset()))
                .description("Bytes the commit log holds (from its first kept byte to its end)").baseUnit("bytes")
                .register(registry);
        Gauge.builder("wharf.store.commitlog.max.offset", store, MessageStore::getMaxPhyOffset)
                .description("The commit log's end offset").baseUnit("bytes").register(registry);
        Gauge.builder("wharf.store.dispatch.behind", store, MessageStore::dispatchBehindBytes)
                .description("Commit-log bytes stored but not yet dispatched to consume queues and index")
                .baseUnit("bytes").register(registry);
        Gauge.builder("wharf.store.writable", store, s -> s.health().isUp() ? 1 : 0)
                .description("1 while the store takes writes, 0 while it refuses them (disk full, dispatch stuck)")
                .register(registry);
        if (disk != null) {
            Gauge.builder("wharf.store.disk.total", disk, d -> space(d, FileStore::getTotalSpace))
                    .description("Size of the disk holding the store").baseUnit("bytes").register(registry);
            Gauge.builder("wharf.store.disk.usable", disk, d -> space(d, FileStore::getUsableSpace))
                    .description("Space left for the store on its disk").baseUnit("bytes").register(registry);
            Gauge.builder("wharf.store.disk.used.ratio", disk, StoreMeters::usedRatio)
                    .description("Share of the store's disk in use (0..1)").register(registry);
        }
    }

    private static void counter(MeterRegistry registry, String name, String description, StoreStats stats,
                                ToDoubleFunction<StoreStats> value) {
        FunctionCounter.builder(name, stats, value).description(description).register(registry);
    }

    private static FileStore fileStore(MessageStore store) {
        try {
            return Files.getFileStore(store.config().rootPath());
        } catch (IOException | RuntimeException e) {
            return null; // the store folder is created on start; the disk gauges are left out then
        }
    }

    private interface Space {
        long of(FileStore d) throws IOException;
    }

    private static double space(FileStore d, Space what) {
        try {
            return what.of(d);
        } catch (IOException e) {
            return Double.NaN;
        }
    }

    private static double usedRatio(FileStore d) {
        double total = space(d, FileStore::getTotalSpace);
        double usable = space(d, FileStore::getUsableSpace);
        return total > 0 ? (total - usable) / total : Double.NaN;
    }

    @Override
    public void stored(String topic, int bytes) {
        topics.stored(topic, bytes);
    }

    @Override
    public void read(String topic, int messages, long bytes) {
        topics.read(topic, messages, bytes);
    }

    @Override
    public void appended(long nanos) {
        putLatency.record(nanos, TimeUnit.NANOSECONDS);
    }

    @Override
    public void flushed(long nanos) {
        flushLatency.record(nanos, TimeUnit.NANOSECONDS);
    }
}
