package dev.wharf.broker.processor;

import dev.wharf.protocol.body.RouteData;
import java.lang.management.ManagementFactory;
import java.util.function.BooleanSupplier;
import java.util.function.LongSupplier;

/**
 * The broker a pull response suggests for the consumer's next pull of that queue (suggestWhichBrokerId), as in
 * RocketMQ: with slave reads enabled, a master sends a consumer whose reads lag far behind the commit log's end
 * (data likely out of the page cache) to {@code whichBrokerWhenConsumeSlowly}, and a slave keeps a lagging
 * consumer and sends the others back to the master; with slave reads off, every broker suggests the master.
 * A consumer whose route has no master ignores a suggestion of it and keeps reading the slave. Thread-safe.
 */
public final class ReadSuggestion {

    private final long brokerId;
    private final long whichBrokerWhenConsumeSlowly;
    private final long laggingBytes;
    private final BooleanSupplier slaveReadEnable;
    private final LongSupplier maxPhyOffset;

    /**
     * @param accessMessageInMemoryMaxRatio percent of physical memory a read may lie behind the commit log's end
     *                                      before it counts as lagging (0: any read not at the end lags)
     */
    public ReadSuggestion(long brokerId, long whichBrokerWhenConsumeSlowly, int accessMessageInMemoryMaxRatio,
                          BooleanSupplier slaveReadEnable, LongSupplier maxPhyOffset) {
        this.brokerId = brokerId;
        this.whichBrokerWhenConsumeSlowly = whichBrokerWhenConsumeSlowly;
        this.laggingBytes = physicalMemory() / 100 * accessMessageInMemoryMaxRatio;
        this.slaveReadEnable = slaveReadEnable;
        this.maxPhyOffset = maxPhyOffset;
    }

    private static long physicalMemory() {
        if (ManagementFactory.getOperatingSystemMXBean() instanceof com.sun.management.OperatingSystemMXBean os) {
            return os.getTotalMemorySize();
        }
        return Runtime.getRuntime().maxMemory();
    }

    /**
     * @param pulledEndPhyOffset the commit-log offset just past the last message this pull returned, or -1 when
     *                           it returned none
     */
    public long suggest(long pulledEndPhyOffset) {
        if (!slaveReadEnable.getAsBoolean()) {
            return RouteData.MASTER_ID;
        }
        boolean lagging = pulledEndPhyOffset >= 0 && maxPhyOffset.getAsLong() - pulledEndPhyOffset > laggingBytes;
        if (!lagging) {
            return RouteData.MASTER_ID;
        }
        return brokerId == RouteData.MASTER_ID ? whichBrokerWhenConsumeSlowly : brokerId;
    }
}
