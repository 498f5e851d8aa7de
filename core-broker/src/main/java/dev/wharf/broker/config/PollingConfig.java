package dev.wharf.broker.config;

import java.util.List;

/**
 * How a pull that finds nothing waits: held until a message arrives (long polling, up to the consumer's suspend
 * timeout) or for a fixed short time.
 */
public class PollingConfig {

    /** Whether a pull that finds nothing waits for a message up to the consumer's suspend timeout. */
    private boolean longPollingEnable = true;
    /** With long polling disabled: how long a pull that finds nothing waits (0 = answer at once). */
    private long shortPollingTimeMills = 1_000;

    /** Adds a sentence to {@code errors} for each bad setting, naming the key and what is allowed. */
    public void validate(List<String> errors) {
        ConfigChecks.range(errors, "shortPollingTimeMills", shortPollingTimeMills, 0, 60_000);
    }

    /** How long a pull that finds nothing is held, given the suspend timeout its consumer asked for. */
    public long holdMillis(long suspendTimeoutMillis) {
        return longPollingEnable ? suspendTimeoutMillis : shortPollingTimeMills;
    }

    public boolean isLongPollingEnable() {
        return longPollingEnable;
    }

    public void setLongPollingEnable(boolean longPollingEnable) {
        this.longPollingEnable = longPollingEnable;
    }

    public long getShortPollingTimeMills() {
        return shortPollingTimeMills;
    }

    public void setShortPollingTimeMills(long shortPollingTimeMills) {
        this.shortPollingTimeMills = shortPollingTimeMills;
    }
}
