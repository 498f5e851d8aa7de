package dev.wharf.broker;

import dev.wharf.broker.schedule.ScheduleLayout;
import dev.wharf.broker.schedule.ScheduleService;
import dev.wharf.broker.transaction.TransactionSupport;
import dev.wharf.common.SystemTopics;
import dev.wharf.protocol.body.BrokerStatus;
import dev.wharf.store.MessageStore;
import dev.wharf.store.MessageStoreConfig;
import dev.wharf.store.health.DiskSpaceGuard;
import java.io.IOException;
import java.io.InputStream;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import java.util.function.LongSupplier;

/**
 * Puts together {@link BrokerStatus} when a tool asks: one {@code statvfs} for the disk, a queue-end lookup per
 * delay level and one record read per level holding messages (its oldest), a pass over the open transactions in
 * memory; nothing kept between calls. Thread-safe (reads volatile or thread-safe state only).
 */
final class BrokerStatusReport {

    /** The build writes the release here (the same file {@code wharf --version} reads). */
    private static final String BUILD_PROPERTIES = "/dev/wharf/server/build.properties";
    private static final String VERSION = readVersion();

    private final MessageStore store;
    private final MessageStoreConfig storeConfig;
    private final ScheduleService schedule;
    private final TransactionSupport transactions;
    private final LongSupplier bootTimestamp;

    BrokerStatusReport(MessageStore store, MessageStoreConfig storeConfig, ScheduleService schedule,
                       TransactionSupport transactions, LongSupplier bootTimestamp) {
        this.store = store;
        this.storeConfig = storeConfig;
        this.schedule = schedule;
        this.transactions = transactions;
        this.bootTimestamp = bootTimestamp;
    }

    BrokerStatus status() {
        long total = -1;
        long usable = -1;
        try {
            long[] space = DiskSpaceGuard.fileStoreSpace(storeConfig.rootPath());
            total = space[0];
            usable = space[1];
        } catch (IOException e) {
            // reported as unknown (-1): the rest of the status is still worth answering
        }
        ScheduleLayout layout = schedule.layout();
        List<BrokerStatus.DelayLevel> levels = new ArrayList<>();
        long timerPending = -1;
        try {
            for (int level = 1; level <= layout.levelCount(); level++) {
                long end = store.getMaxOffsetInQueue(SystemTopics.SCHEDULE_TOPIC, level - 1);
                long pending = Math.max(0, end - schedule.levelOffset(level));
                levels.add(new BrokerStatus.DelayLevel(level, layout.levelMillis(level), pending,
                        pending == 0 ? -1 : schedule.levelOldestAgeMillis(level)));
            }
            timerPending = Math.max(0, store.getMaxOffsetInQueue(SystemTopics.SCHEDULE_TOPIC, layout.timerQueueId())
                    - schedule.timerLowWater());
        } catch (IllegalArgumentException e) {
            levels.clear(); // delivery does not run here (a slave, or not started): its progress is not known
        }
        return new BrokerStatus(VERSION, bootTimestamp.getAsLong(), storeConfig.rootPath().toString(),
                Math.max(0, store.getMaxPhyOffset() - store.getMinPhyOffset()), total, usable,
                storeConfig.getDiskMaxUsedSpaceRatio(), storeConfig.getDiskSpaceWarningLevelRatio(),
                store.health().writeRefusal(), List.copyOf(levels), timerPending, schedule.deliveredCount(),
                transactions.openTransactionCount(), transactions.checkBacksSent(), transactions.checkRounds(),
                levels.isEmpty() ? -1 : schedule.timerEarliestDue(), transactions.oldestOpenTransactionAgeMillis());
    }

    private static String readVersion() {
        Properties p = new Properties();
        try (InputStream in = BrokerStatusReport.class.getResourceAsStream(BUILD_PROPERTIES)) {
            if (in != null) {
                p.load(in);
            }
        } catch (IOException e) {
            // a development build below: the status must answer without it
        }
        String v = p.getProperty("version", "").trim();
        return v.isEmpty() || v.contains("${") ? "(development build)" : v;
    }
}
