package dev.wharf.broker.config;

import static dev.wharf.broker.config.ConfigChecks.range;

import dev.wharf.common.config.SettingsPart;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Settings of the broker role (the store and the network listener have their own config beans). Property
 * names are RocketMQ's, so a RocketMQ {@code broker.conf} mostly reads as it is. Setters accept anything;
 * {@link #validate()} reports every bad value at once, each with what is allowed.
 *
 * <p>The broker's identity, topics and clients are set here; each subsystem's settings live in a part of their own
 * ({@link #executors()}, {@link #transaction()}, {@link #schedule()}, ...), which validates itself. The parts' keys
 * stay flat: {@code BeanBinder} binds {@code transactionTimeOut} to {@code transaction()} as if this bean had it.
 */
public class BrokerConfig {

    /** Name of the broker group (master and slaves share it); clients see it in routes. */
    private String brokerName = "broker-a";
    /** Cluster the broker registers under at the NameServers. */
    private String brokerClusterName = "DefaultCluster";
    /** 0 = master, greater = slave. */
    /** Volatile: in controller mode it follows the role (0 while master, the controller id while slave). */
    private volatile long brokerId = 0L;
    /** NameServers as "host:port;host:port"; empty = register nowhere (standalone or in-JVM use). */
    private String namesrvAddr = "";
    /** Address clients are told to connect to (the port is the listen port). */
    private String brokerIP1 = "127.0.0.1";
    /** Whether a send to an unknown topic creates it with {@link #defaultTopicQueueNums} queues. */
    private boolean autoCreateTopicEnable = true;
    /** Whether a consumer group's settings are created on its first heartbeat or pull. */
    private boolean autoCreateSubscriptionGroup = true;
    /** Queues of an auto-created topic. */
    private int defaultTopicQueueNums = 8;
    /** How often consumer offsets are written to disk, in milliseconds. */
    private int flushConsumerOffsetInterval = 5_000;
    /** A client silent for this long (no heartbeat) is dropped, in milliseconds. */
    private long channelExpiredTimeout = 120_000;
    /** How often silent clients are looked for, in milliseconds. */
    private int clientHousekeepingInterval = 10_000;
    /** Default redeliveries before a message goes to the dead-letter queue (per group: retryMaxTimes). */
    private int maxReconsumeTimes = 16;
    /** An orderly-consumption queue lock not renewed for this long expires, in milliseconds. */
    private long rebalanceLockMaxLiveTime = 60_000;
    /**
     * After an offset reset, commits of the old position are ignored for a queue until its consumer re-reads
     * the offset, but at most this long, in milliseconds.
     */
    private long offsetResetGuardMillis = 30_000;

    private final ExecutorsConfig executors = new ExecutorsConfig();

    /** Sizes of the request executors. */
    @SettingsPart
    public ExecutorsConfig executors() {
        return executors;
    }

    private final TransactionConfig transaction = new TransactionConfig();

    /** Check-back of open transactions and the END_TRANSACTION executor. */
    @SettingsPart
    public TransactionConfig transaction() {
        return transaction;
    }

    private final ScheduleConfig schedule = new ScheduleConfig();

    /** Delay levels, the timer and the scheduler's progress file. */
    @SettingsPart
    public ScheduleConfig schedule() {
        return schedule;
    }

    private final PopConfig pop = new PopConfig();

    /** Pop, ack and lease settings. */
    @SettingsPart
    public PopConfig pop() {
        return pop;
    }

    private final PollingConfig polling = new PollingConfig();

    /** How pulls that find nothing wait. */
    @SettingsPart
    public PollingConfig polling() {
        return polling;
    }

    private final RegistrationConfig registration = new RegistrationConfig();

    /** How often and how patiently the broker registers with the NameServers. */
    @SettingsPart
    public RegistrationConfig registration() {
        return registration;
    }

    private final SlaveConfig slaves = new SlaveConfig();

    /** How slaves copy metadata and serve lagging reads. */
    @SettingsPart
    public SlaveConfig slaves() {
        return slaves;
    }

    private final MetricsConfig metrics = new MetricsConfig();

    /** The metrics endpoint and its series caps. */
    @SettingsPart
    public MetricsConfig metrics() {
        return metrics;
    }

    private final InnerClientConfig innerClient = new InnerClientConfig();

    /** Credentials and TLS of the broker's own clients. */
    @SettingsPart
    public InnerClientConfig innerClient() {
        return innerClient;
    }

    /**
     * Checks every setting.
     *
     * @throws IllegalArgumentException listing each bad setting with what is allowed
     */
    public void validate() {
        List<String> errors = new ArrayList<>();
        if (brokerName == null || brokerName.isBlank() || !brokerName.matches("[A-Za-z0-9_.-]+")) {
            errors.add("brokerName \"" + brokerName + "\" is not valid; use letters, digits, _ . and -.");
        }
        if (brokerClusterName == null || brokerClusterName.isBlank() || !brokerClusterName.matches("[A-Za-z0-9_.-]+")) {
            errors.add("brokerClusterName \"" + brokerClusterName + "\" is not valid; use letters, digits, _ . and -.");
        }
        if (brokerId < 0) {
            errors.add("brokerId is " + brokerId + "; use 0 for a master or a positive number for a slave.");
        }
        try {
            namesrvAddrList();
        } catch (IllegalArgumentException e) {
            errors.add(e.getMessage());
        }
        if (brokerIP1 == null || brokerIP1.isBlank() || brokerIP1.chars().filter(c -> c == ':').count() == 1) {
            errors.add("brokerIP1 \"" + brokerIP1 + "\" is not an address; give the IP clients reach this broker at,"
                    + " without a port (the port is listenPort).");
        }
        range(errors, "defaultTopicQueueNums", defaultTopicQueueNums, 1, 1024);
        range(errors, "flushConsumerOffsetInterval", flushConsumerOffsetInterval, 100, Integer.MAX_VALUE);
        range(errors, "channelExpiredTimeout", channelExpiredTimeout, 1_000, Long.MAX_VALUE);
        range(errors, "clientHousekeepingInterval", clientHousekeepingInterval, 100, Integer.MAX_VALUE);
        range(errors, "maxReconsumeTimes", maxReconsumeTimes, 0, 10_000);
        range(errors, "rebalanceLockMaxLiveTime", rebalanceLockMaxLiveTime, 1_000, Long.MAX_VALUE);
        range(errors, "offsetResetGuardMillis", offsetResetGuardMillis, 0, Long.MAX_VALUE);
        executors.validate(errors);
        transaction.validate(errors);
        schedule.validate(errors);
        pop.validate(errors);
        polling.validate(errors);
        registration.validate(errors);
        slaves.validate(errors);
        metrics.validate(errors);
        if (!errors.isEmpty()) {
            throw new IllegalArgumentException("Invalid broker configuration: " + String.join(" ", errors));
        }
    }

    /**
     * The NameServer addresses of {@link #getNamesrvAddr()}, empty when none is configured.
     *
     * @throws IllegalArgumentException naming an entry that is not "host:port"
     */
    public List<String> namesrvAddrList() {
        if (namesrvAddr == null || namesrvAddr.isBlank()) {
            return List.of();
        }
        List<String> out = new ArrayList<>();
        for (String raw : namesrvAddr.split(";")) {
            String addr = raw.trim();
            if (addr.isEmpty()) {
                continue;
            }
            int colon = addr.lastIndexOf(':');
            boolean ok = colon > 0 && colon < addr.length() - 1;
            if (ok) {
                try {
                    int port = Integer.parseInt(addr.substring(colon + 1));
                    ok = port > 0 && port <= 65_535;
                } catch (NumberFormatException e) {
                    ok = false;
                }
            }
            if (!ok) {
                throw new IllegalArgumentException("namesrvAddr entry \"" + addr + "\" is not host:port; write the"
                        + " NameServers as host:port separated by ';', e.g. 10.0.0.1:9876;10.0.0.2:9876.");
            }
            if (!out.contains(addr)) {
                out.add(addr);
            }
        }
        return List.copyOf(out);
    }

    public String getBrokerName() {
        return brokerName;
    }

    public void setBrokerName(String brokerName) {
        this.brokerName = brokerName;
    }

    public String getBrokerClusterName() {
        return brokerClusterName;
    }

    public void setBrokerClusterName(String brokerClusterName) {
        this.brokerClusterName = brokerClusterName;
    }

    public long getBrokerId() {
        return brokerId;
    }

    public void setBrokerId(long brokerId) {
        this.brokerId = brokerId;
    }

    public String getNamesrvAddr() {
        return namesrvAddr;
    }

    public void setNamesrvAddr(String namesrvAddr) {
        this.namesrvAddr = namesrvAddr == null ? "" : namesrvAddr.trim();
    }

    public String getBrokerIP1() {
        return brokerIP1;
    }

    public void setBrokerIP1(String brokerIP1) {
        this.brokerIP1 = brokerIP1 == null ? null : brokerIP1.trim();
    }

    public boolean isAutoCreateTopicEnable() {
        return autoCreateTopicEnable;
    }

    public void setAutoCreateTopicEnable(boolean autoCreateTopicEnable) {
        this.autoCreateTopicEnable = autoCreateTopicEnable;
    }

    public boolean isAutoCreateSubscriptionGroup() {
        return autoCreateSubscriptionGroup;
    }

    public void setAutoCreateSubscriptionGroup(boolean autoCreateSubscriptionGroup) {
        this.autoCreateSubscriptionGroup = autoCreateSubscriptionGroup;
    }

    public int getDefaultTopicQueueNums() {
        return defaultTopicQueueNums;
    }

    public void setDefaultTopicQueueNums(int defaultTopicQueueNums) {
        this.defaultTopicQueueNums = defaultTopicQueueNums;
    }

    public int getFlushConsumerOffsetInterval() {
        return flushConsumerOffsetInterval;
    }

    public void setFlushConsumerOffsetInterval(int flushConsumerOffsetInterval) {
        this.flushConsumerOffsetInterval = flushConsumerOffsetInterval;
    }

    public long getChannelExpiredTimeout() {
        return channelExpiredTimeout;
    }

    public void setChannelExpiredTimeout(long channelExpiredTimeout) {
        this.channelExpiredTimeout = channelExpiredTimeout;
    }

    public int getClientHousekeepingInterval() {
        return clientHousekeepingInterval;
    }

    public void setClientHousekeepingInterval(int clientHousekeepingInterval) {
        this.clientHousekeepingInterval = clientHousekeepingInterval;
    }

    public int getMaxReconsumeTimes() {
        return maxReconsumeTimes;
    }

    public void setMaxReconsumeTimes(int maxReconsumeTimes) {
        this.maxReconsumeTimes = maxReconsumeTimes;
    }

    public long getRebalanceLockMaxLiveTime() {
        return rebalanceLockMaxLiveTime;
    }

    public void setRebalanceLockMaxLiveTime(long rebalanceLockMaxLiveTime) {
        this.rebalanceLockMaxLiveTime = rebalanceLockMaxLiveTime;
    }

    public long getOffsetResetGuardMillis() {
        return offsetResetGuardMillis;
    }

    public void setOffsetResetGuardMillis(long offsetResetGuardMillis) {
        this.offsetResetGuardMillis = offsetResetGuardMillis;
    }

    /**
     * Whether this broker is a slave of its group (brokerId above 0). Validated settings make brokerRole agree: it
     * is SLAVE exactly when this is true (see HaConfig#validate).
     */
    public boolean isSlave() {
        return brokerId != 0;
    }

    @Override
    public String toString() {
        return "BrokerConfig{brokerName=" + brokerName + ", cluster=" + brokerClusterName + ", brokerId=" + brokerId
                + ", namesrvAddr=" + namesrvAddr + ", brokerIP1=" + brokerIP1 + ", delayLevels="
                + Arrays.toString(schedule.getMessageDelayLevel() == null ? null
                        : schedule.getMessageDelayLevel().split("\\s+")) + "}";
    }
}
