package dev.wharf.embedded;

import dev.wharf.broker.config.BrokerConfig;
import dev.wharf.broker.config.BrokerSettings;
import dev.wharf.common.config.BeanBinder;
import dev.wharf.remoting.NettyServerConfig;
import dev.wharf.store.MessageStoreConfig;
import java.util.List;
import java.util.Map;

/**
 * The settings of a broker that runs inside an application ({@code vm://} URLs, the Spring Boot starter): small
 * store files and thread pools, since the application shares the machine with it, and the binding of the flat
 * RocketMQ setting names onto the broker's configuration beans.
 */
public final class InApplicationSettings {

    /** Commit-log file size unless set: small, since a file is mapped at once. */
    private static final int COMMIT_LOG_FILE_SIZE = 64 * 1024 * 1024;
    private static final int MAX_HASH_SLOTS = 200_000;
    private static final int MAX_INDEX_NUM = 800_000;

    private InApplicationSettings() {
    }

    /** Default settings for an in-application broker named {@code name} (also its cluster's name). */
    public static BrokerSettings defaults(String name) {
        BrokerSettings s = BrokerSettings.defaults();
        s.broker().setBrokerName(name);
        s.broker().setBrokerClusterName(name);
        s.broker().executors().setSendMessageThreadPoolNums(2);
        s.broker().executors().setPullMessageThreadPoolNums(4);
        s.broker().executors().setQueryMessageThreadPoolNums(1);
        s.broker().executors().setAdminBrokerThreadPoolNums(1);
        s.broker().executors().setClientManageThreadPoolNums(2);
        s.store().setMappedFileSizeCommitLog(COMMIT_LOG_FILE_SIZE);
        s.store().setMaxHashSlotNum(MAX_HASH_SLOTS);
        s.store().setMaxIndexNum(MAX_INDEX_NUM);
        s.netty().setSelectorThreads(1);
        return s;
    }

    /** The configuration beans whose setters name the settings {@link #bind} takes. */
    public static List<Class<?>> settingTypes() {
        return List.of(BrokerConfig.class, MessageStoreConfig.class, NettyServerConfig.class);
    }

    /**
     * Binds flat settings onto the broker's, store's and listener's beans.
     *
     * @return the keys no bean has a setter for
     * @throws IllegalArgumentException when a value has the wrong form, naming the key
     */
    public static List<String> bind(BrokerSettings settings, Map<String, String> values) {
        return BeanBinder.bind(values, settings.broker(), settings.store(), settings.netty());
    }

    /**
     * Describes unknown keys, each with the closest known name among the beans' setters and those of
     * {@code moreBeans} (settings the caller takes beside the broker's).
     */
    public static String describeUnknown(BrokerSettings settings, List<String> unknown, String where,
                                         Object... moreBeans) {
        Object[] beans = new Object[3 + moreBeans.length];
        beans[0] = settings.broker();
        beans[1] = settings.store();
        beans[2] = settings.netty();
        System.arraycopy(moreBeans, 0, beans, 3, moreBeans.length);
        return BeanBinder.describeUnknown(unknown, where, beans);
    }
}
