package dev.wharf.broker.config;

import java.util.List;

/**
 * How slaves follow their master's metadata and when a master sends lagging consumers to a slave (replication of
 * the commit log itself is configured by the replication settings).
 */
public class SlaveConfig {

    /** A slave copies its master's topics, groups, offsets and progress documents this often, in milliseconds. */
    private long slaveSynchronizeInterval = 3_000;
    /** The slave a master suggests to consumers whose reads lag far behind (when slave reads are enabled). */
    private long whichBrokerWhenConsumeSlowly = 1;
    /**
     * A pull whose data lies more than this percentage of physical memory behind the commit log's end is
     * "lagging": likely no longer in the page cache, so a master suggests a slave for it (with slave reads on).
     * 0 counts every read that is not at the end as lagging.
     */
    private int accessMessageInMemoryMaxRatio = 40;

    /** Adds a sentence to {@code errors} for each bad setting, naming the key and what is allowed. */
    public void validate(List<String> errors) {
        ConfigChecks.range(errors, "slaveSynchronizeInterval", slaveSynchronizeInterval, 100, 600_000);
        ConfigChecks.range(errors, "whichBrokerWhenConsumeSlowly", whichBrokerWhenConsumeSlowly, 0, Integer.MAX_VALUE);
        ConfigChecks.range(errors, "accessMessageInMemoryMaxRatio", accessMessageInMemoryMaxRatio, 0, 100);
    }

    public long getSlaveSynchronizeInterval() {
        return slaveSynchronizeInterval;
    }

    public void setSlaveSynchronizeInterval(long slaveSynchronizeInterval) {
        this.slaveSynchronizeInterval = slaveSynchronizeInterval;
    }

    public long getWhichBrokerWhenConsumeSlowly() {
        return whichBrokerWhenConsumeSlowly;
    }

    public void setWhichBrokerWhenConsumeSlowly(long whichBrokerWhenConsumeSlowly) {
        this.whichBrokerWhenConsumeSlowly = whichBrokerWhenConsumeSlowly;
    }

    public int getAccessMessageInMemoryMaxRatio() {
        return accessMessageInMemoryMaxRatio;
    }

    public void setAccessMessageInMemoryMaxRatio(int accessMessageInMemoryMaxRatio) {
        this.accessMessageInMemoryMaxRatio = accessMessageInMemoryMaxRatio;
    }
}
