package dev.wharf.broker;

import dev.wharf.broker.topic.TopicConfigManager;
import dev.wharf.protocol.RocketMqVersions;
import dev.wharf.protocol.body.BrokerRuntime;
import dev.wharf.protocol.body.TopicConfig;
import dev.wharf.store.MessageStore;
import dev.wharf.store.StoreStats;
import java.io.IOException;
import java.nio.file.FileStore;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDate;
import java.time.ZoneId;
import java.util.HashMap;
import java.util.Locale;
import java.util.Map;
import java.util.function.LongSupplier;
import java.util.function.Supplier;

/**
 * The broker's runtime table as RocketMQ's tools read it (GET_BROKER_RUNTIME_INFO from {@code mqadmin brokerStatus}
 * and {@code clusterList}): string values under RocketMQ's key names. Traffic rates come from samples of the store's
 * put and get counters that {@link #sample} takes every {@value #SAMPLE_MILLIS} ms, over the last 10 s, 1 min and
 * 10 min as RocketMQ reports them ("10s 60s 600s"). "Today" counts from local midnight or from the broker's start,
 * whichever is later, since the counters start at zero. Figures Wharf does not measure are left out rather than
 * made up; RocketMQ's tools print them as empty. Thread-safe: one sampling thread, readers on admin threads.
 */
final class RuntimeFigures {

    static final long SAMPLE_MILLIS = 10_000;
    /** Samples kept: ten minutes and one. */
    private static final int RING = 61;

    private final Supplier<BrokerRuntime> runtime;
    private final MessageStore store;
    private final BrokerExecutors executors;
    private final TopicConfigManager topics;
    private final Path storeRoot;
    private final LongSupplier clock;
    private final long[] times = new long[RING];
    private final long[] puts = new long[RING];
    private final long[] gets = new long[RING];
    private int next;
    private int count;
    private LocalDate day;
    private long putTodayMorning;
    private long getTodayMorning;
    private long putYesterdayMorning;
    private long getYesterdayMorning;

    RuntimeFigures(Supplier<BrokerRuntime> runtime, MessageStore store, BrokerExecutors executors,
                   TopicConfigManager topics, Path storeRoot, LongSupplier clock) {
        this.runtime = runtime;
        this.store = store;
        this.executors = executors;
        this.topics = topics;
        this.storeRoot = storeRoot;
        this.clock = clock;
    }

    /** Records the counters now; also rolls "today" over at local midnight. */
    synchronized void sample() {
        long now = clock.getAsLong();
        StoreStats stats = store.stats();
        long put = stats.putMessageCount();
        long get = stats.getMessageCount();
        times[next] = now;
        puts[next] = put;
        gets[next] = get;
        next = (next + 1) % RING;
        count = Math.min(count + 1, RING);
        LocalDate today = LocalDate.ofInstant(java.time.Instant.ofEpochMilli(now), ZoneId.systemDefault());
        if (day == null) {
            day = today;
        } else if (!today.equals(day)) {
            putYesterdayMorning = putTodayMorning;
            getYesterdayMorning = getTodayMorning;
            putTodayMorning = put;
            getTodayMorning = get;
            day = today;
        }
    }

    /** The table, keyed by RocketMQ's names. */
    synchronized Map<String, String> rocketMqTable() {
        BrokerRuntime r = runtime.get();
        StoreStats stats = store.stats();
        long now = clock.getAsLong();
        long put = stats.putMessageCount();
        long get = stats.getMessageCount();
        Map<String, String> t = new HashMap<>();
        t.put("brokerVersionDesc", "Wharf " + implementationVersion() + " (RocketMQ protocol V4_9_4)");
        t.put("brokerVersion", String.valueOf(RocketMqVersions.V4_9_4));
        t.put("brokerActive", String.valueOf(r.brokerId() == 0));
        t.put("bootTimestamp", String.valueOf(r.bootTimestamp()));
        t.put("runtime", uptime(now - r.bootTimestamp()));
        t.put("commitLogMinOffset", String.valueOf(r.commitLogMinOffset()));
        t.put("commitLogMaxOffset", String.valueOf(r.commitLogMaxOffset()));
        t.put("dispatchBehindBytes", String.valueOf(r.dispatchBehindBytes()));
        t.put("msgPutTotalTodayNow", String.valueOf(put));
        t.put("msgGetTotalTodayNow", String.valueOf(get));
        t.put("msgPutTotalTodayMorning", String.valueOf(putTodayMorning));
        t.put("msgGetTotalTodayMorning", String.valueOf(getTodayMorning));
        t.put("msgPutTotalYesterdayMorning", String.valueOf(putYesterdayMorning));
        t.put("msgGetTotalYesterdayMorning", String.valueOf(getYesterdayMorning));
        t.put("putTps", rates(puts, now, put));
        t.put("getTransferredTps", rates(gets, now, get));
        t.put("sendThreadPoolQueueSize", String.valueOf(executors.send.getQueue().size()));
        t.put("sendThreadPoolQueueCapacity", String.valueOf(executors.send.getQueue().remainingCapacity()
                + executors.send.getQueue().size()));
        t.put("pullThreadPoolQueueSize", String.valueOf(executors.pull.getQueue().size()));
        t.put("pullThreadPoolQueueCapacity", String.valueOf(executors.pull.getQueue().remainingCapacity()
                + executors.pull.getQueue().size()));
        t.put("ackThreadPoolQueueSize", String.valueOf(executors.ack.getQueue().size()));
        long earliest = earliestMessageTime();
        if (earliest > 0) {
            t.put("earliestMessageTimeStamp", String.valueOf(earliest));
        }
        double ratio = diskRatio();
        if (ratio >= 0) {
            t.put("commitLogDiskRatio", String.format(Locale.ROOT, "%.4f", ratio));
        }
        if (r.brokerRole() != null) {
            t.put("brokerRole", r.brokerRole());
        }
        if (r.masterAddr() != null) {
            t.put("masterAddr", r.masterAddr());
        }
        return t;
    }

    /** "x y z": per-second rates over about 10 s, 60 s and 600 s (shorter while the broker is younger). */
    private String rates(long[] counts, long now, long current) {
        return String.format(Locale.ROOT, "%.2f %.2f %.2f", rate(counts, now, current, 1),
                rate(counts, now, current, 6), rate(counts, now, current, 60));
    }

    private double rate(long[] counts, long now, long current, int samplesBack) {
        if (count == 0) {
            return 0;
        }
        int back = Math.min(samplesBack, count);
        int i = Math.floorMod(next - back, RING);
        long elapsed = now - times[i];
        return elapsed <= 0 ? 0 : (current - counts[i]) * 1000.0 / elapsed;
    }

    private long earliestMessageTime() {
        long earliest = Long.MAX_VALUE;
        for (TopicConfig topic : topics.all().values()) {
            for (int q = 0; q < topic.writeQueueNums(); q++) {
                long time = store.getEarliestMessageTime(topic.topicName(), q);
                if (time > 0 && time < earliest) {
                    earliest = time;
                }
            }
        }
        return earliest == Long.MAX_VALUE ? -1 : earliest;
    }

    private double diskRatio() {
        try {
            FileStore fs = Files.getFileStore(storeRoot);
            long total = fs.getTotalSpace();
            return total <= 0 ? -1 : (double) (total - fs.getUsableSpace()) / total;
        } catch (IOException e) {
            return -1;
        }
    }

    private static String uptime(long millis) {
        long s = Math.max(0, millis) / 1000;
        return String.format(Locale.ROOT, "[ %d days, %d hours, %d minutes, %d seconds ]", s / 86_400,
                s / 3_600 % 24, s / 60 % 60, s % 60);
    }

    private static String implementationVersion() {
        String v = RuntimeFigures.class.getPackage().getImplementationVersion();
        return v == null ? "(development build)" : v;
    }
}
